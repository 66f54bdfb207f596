// A strict reader of the Prometheus text exposition format (version 0.0.4), for tests: every
// line must follow the format's grammar, or it throws naming the line. Written here because the
// parsers on npm are unmaintained, and the one tried dropped the labels of histogram samples.
// Grammar: https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format

/** One sample line: its name (with _bucket, _sum, _count for histograms), labels and value. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** A metric family: its TYPE, HELP and samples, in the order given. */
export interface Family {
  readonly name: string;
  readonly type: "counter" | "gauge" | "histogram" | "summary" | "untyped";
  readonly help: string;
  readonly samples: Sample[];
}

const METRIC_NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const LABEL_NAME = "[a-zA-Z_][a-zA-Z0-9_]*";
const LABEL_VALUE = '"(?:[^"\\\\\\n]|\\\\[\\\\"n])*"';
// Values are Go floats (strconv.ParseFloat, what Prometheus reads them with): NaN and Inf in any case.
const VALUE =
  "(?:[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?|[+-]?(?:[nN][aA][nN]|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?))";
const LABEL = `(${LABEL_NAME})=(${LABEL_VALUE})`;
const SAMPLE = new RegExp(
  `^(${METRIC_NAME})(?:\\{((?:${LABEL_NAME}=${LABEL_VALUE})(?:,${LABEL_NAME}=${LABEL_VALUE})*,?)?\\})? (${VALUE})(?: (-?\\d+))?$`,
);
const HELP = new RegExp(`^# HELP (${METRIC_NAME}) (.*)$`);
const TYPE = new RegExp(`^# TYPE (${METRIC_NAME}) (counter|gauge|histogram|summary|untyped)$`);
const SUFFIXES = { histogram: ["_bucket", "_sum", "_count"], summary: ["", "_sum", "_count"] } as const;

/** Parses a whole scrape. @throws Error naming the first line that breaks the grammar */
export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const helps = new Map<string, string>();
  const lines = text.split("\n");
  if (lines.at(-1) !== "") throw new Error("the text does not end with a line feed");
  for (const [index, line] of lines.slice(0, -1).entries()) {
    const fail = (why: string) => new Error(`line ${index + 1} ${why}: ${JSON.stringify(line)}`);
    if (line === "") continue;
    const help = HELP.exec(line);
    const type = TYPE.exec(line);
    if (help) helps.set(help[1]!, unescape(help[2]!, false));
    else if (type) {
      if (families.has(type[1]!)) throw fail("repeats a TYPE");
      families.set(type[1]!, { name: type[1]!, type: type[2] as Family["type"], help: "", samples: [] });
    } else if (line.startsWith("#")) continue;
    else {
      const match = SAMPLE.exec(line);
      if (!match) throw fail("is not a sample");
      const family = familyOf(families, match[1]!);
      if (!family) throw fail("has no TYPE line before it");
      family.samples.push({ name: match[1]!, labels: labelsOf(match[2] ?? "", fail), value: numberOf(match[3]!) });
    }
  }
  for (const family of families.values()) Object.assign(family, { help: helps.get(family.name) ?? "" });
  return families;
}

function familyOf(families: Map<string, Family>, name: string): Family | undefined {
  const exact = families.get(name);
  if (exact && exact.type !== "histogram") return exact;
  for (const suffix of ["_bucket", "_sum", "_count"]) {
    if (!name.endsWith(suffix)) continue;
    const family = families.get(name.slice(0, -suffix.length));
    if (family && (SUFFIXES[family.type as "histogram" | "summary"] as readonly string[] | undefined)?.includes(suffix))
      return family;
  }
  return undefined;
}

function labelsOf(text: string, fail: (why: string) => Error): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const match of text.matchAll(new RegExp(LABEL, "g"))) {
    if (match[1]! in labels) throw fail(`repeats the label ${match[1]}`);
    labels[match[1]!] = unescape(match[2]!.slice(1, -1), true);
  }
  return labels;
}

function unescape(text: string, quoted: boolean): string {
  return text.replace(quoted ? /\\([\\"n])/g : /\\([\\n])/g, (_, c: string) => (c === "n" ? "\n" : c));
}

function numberOf(text: string): number {
  const lower = text.toLowerCase().replace(/^\+/, "");
  if (lower === "nan") return NaN;
  if (lower === "inf" || lower === "infinity") return Infinity;
  if (lower === "-inf" || lower === "-infinity") return -Infinity;
  return Number(text);
}

/**
 * Checks a histogram's series (one per label set without `le`): buckets in increasing `le`
 * with cumulative counts that never decrease, a +Inf bucket equal to _count, and a _sum.
 * @throws Error naming the series
 */
export function assertHistogram(family: Family): void {
  const series = new Map<string, { buckets: [number, number][]; sum?: number; count?: number }>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const entry = series.get(key) ?? { buckets: [] };
    series.set(key, entry);
    if (sample.name.endsWith("_bucket")) entry.buckets.push([numberOf(le ?? "NaN"), sample.value]);
    else if (sample.name.endsWith("_sum")) entry.sum = sample.value;
    else entry.count = sample.value;
  }
  for (const [key, { buckets, sum, count }] of series) {
    const where = `${family.name}${key}`;
    if (sum === undefined || count === undefined) throw new Error(`${where} lacks _sum or _count`);
    buckets.forEach(([le, value], index) => {
      const previous = buckets[index - 1];
      if (Number.isNaN(le)) throw new Error(`${where} has a bucket without le`);
      if (previous && (previous[0] >= le || previous[1] > value)) throw new Error(`${where}: buckets out of order`);
    });
    const last = buckets.at(-1);
    if (last?.[0] !== Infinity || last[1] !== count) throw new Error(`${where}: the +Inf bucket is not _count`);
  }
}
