// XML refusals (`npm run bench`, or alone: `npm run bench:xml`): how long parseXml takes to refuse
// the DOCTYPE probes of test/atom/parse.test.ts (billion laughs, quadratic blow-up, external
// entities), in this process. They are refused when the DOCTYPE is met, before anything is expanded:
// each should take well under a millisecond warm, and no more than the cold parser's start (the
// budget once asserted by the test was 250 ms; speed is measured here, not in tests).
import { NS } from "../src/atom/namespaces.js";
import { XmlParseError, parseXml } from "../src/atom/parse.js";

const ATOM = NS.atom;
/** The slowest a probe may be refused, cold (the first parse in this process), in ms. */
const BUDGET_MS = 250;

function probes(): Record<string, string> {
  const entity = (declarations: string, body: string): string =>
    `<?xml version="1.0"?><!DOCTYPE entry [${declarations}]><entry xmlns="${ATOM}"><title>${body}</title></entry>`;
  const laughs = Array.from({ length: 10 }, (_, i) =>
    i === 0 ? '<!ENTITY lol0 "lol">' : `<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`,
  ).join("");
  return {
    doctype_only: `<!DOCTYPE entry><entry xmlns="${ATOM}"><title>t</title></entry>`,
    billion: entity(laughs, "&lol9;"),
    quadratic: entity(`<!ENTITY a "${"x".repeat(50_000)}">`, "&a;".repeat(20_000)),
    xxe_file: entity('<!ENTITY x SYSTEM "file:///etc/passwd">', "&x;"),
  };
}

/** One refusal, timed; throws when the probe is accepted or refused for another reason. */
function refuse(source: string): number {
  const started = performance.now();
  try {
    parseXml(source);
  } catch (error) {
    const ms = performance.now() - started;
    if (error instanceof XmlParseError && error.code === "XML_DOCTYPE_FORBIDDEN") return ms;
    throw error;
  }
  throw new Error("a DOCTYPE probe was accepted");
}

/** One line per probe: cold (the first refusal), then the median of 51 warm ones. */
export function xmlProbesMicro(): string {
  const rows = Object.entries(probes()).map(([name, source]) => {
    const cold = refuse(source);
    const warm = Array.from({ length: 51 }, () => refuse(source)).sort((a, b) => a - b)[25]!;
    const verdict = cold <= BUDGET_MS ? "ok" : `OVER the ${BUDGET_MS} ms budget`;
    return `  ${name.padEnd(13)} cold ${cold.toFixed(2)} ms, warm ${warm.toFixed(3)} ms: ${verdict}`;
  });
  return `XML DOCTYPE probes refused:\n${rows.join("\n")}`;
}

// `npm run bench:xml`
if (process.argv[1]?.endsWith("xml.ts")) console.log(xmlProbesMicro());
