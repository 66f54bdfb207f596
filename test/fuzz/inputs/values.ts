// Hostile values: the numbers, ids, dates and strings that parsers of this API trip on.
import fc from "fast-check";
import type { GroupItems } from "../../support/world.js";

/** Characters XML 1.0 cannot carry, lone surrogates, and the other usual suspects. */
export const NASTY_CHARACTERS = [
  "\u0000",
  "\u0001",
  "\u001f",
  "\u007f",
  "\u0085",
  "\uD800",
  "\uDFFF",
  "\uFFFE",
  "\uFFFF",
  "\u202E",
  "\u200B",
  "\uFEFF",
  "\r",
  "\t",
  "😀",
  "ｇ",
  "Å",
] as const;

/** One of those, NUL often: PostgreSQL cannot store it in text at all, so it finds paths that reach the database. */
export function nastyCharacter(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant("\u0000") },
    { weight: 2, arbitrary: fc.constantFrom(...NASTY_CHARACTERS) },
  );
}

const ABSURD = [
  "",
  " ",
  "-1",
  "0",
  "-0",
  "00",
  "1e3",
  "1e309",
  "NaN",
  "Infinity",
  "-Infinity",
  "0x10",
  "1.5",
  "+5",
  " 7 ",
  "2147483648",
  "9007199254740993",
  "99999999999999999999999999",
  "999999999",
  "1000000000",
  "1:0",
  "1:-1",
  "1:01",
  "0:1",
  "2:1",
  "1:1:1",
  "1:",
  ":1",
  "1:999999999999999",
  "1:9999999999999999999",
  "GROUP",
  "GROUP,",
  "GROUP,1:",
  ",,,",
  "GROUP,1:1,BOARD",
  "GROUP,1:1,BOARD,1:1,COMMENT,0",
  "GROUP,1:1,BOARD,1:1,COMMENT,-1",
  "GROUP,1:1,BOARD,1:1,COMMENT,1,ATTACHMENT,0",
  "MYPAGE,1:1,MESSAGE,1:1",
  "GROUP,1:1,GW_SCHEDULE,1:1",
  "group,1:1",
  "true",
  "TRUE",
  "tRuE",
  "false",
  "yes",
  "1",
  "null",
  "undefined",
  "__proto__",
  "constructor",
  "toString",
  "[object Object]",
  "UNCLASSIFIED",
  "TRASH",
  "ATTACH",
  "NOT_COMPLETED",
  "COMPLETED",
  "INVITE",
  "JOIN",
  "BOARD",
  "M_SCHEDULE",
  "MEMBER_LIST",
  "0000-00-00T00:00:00Z",
  "2026-02-30T00:00:00Z",
  "2026-04-01T25:00:00Z",
  "9999-12-31T23:59:59Z",
  "1899-12-31T23:59:59Z",
  "2100-12-31T23:59:59.999999999Z",
  "2026-04-01T00:00:00+09:00",
  "2026-04-01",
  "-002026-04-01T00:00:00Z",
  "+275760-09-13T00:00:00Z",
  "' OR 1=1 --",
  "%",
  "%%",
  "%00",
  "&",
  "=",
  "<x/>",
  "]]>",
  "\\",
  "../../etc/passwd",
  "${x}",
  "{{x}}",
  "日本語",
  "未着手",
  "Ｇ",
  "١٢٣",
  "x".repeat(5000),
];

/** A value of the kind that breaks number, id, date and flag parsing. */
export function absurdValue(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...ABSURD) },
    {
      weight: 2,
      arbitrary: nastyCharacter().chain((c) => fc.constantFrom(c, `1:${c}1`, `${c}GROUP,1:1`, c.repeat(50))),
    },
    { weight: 1, arbitrary: fc.integer().map(String) },
    { weight: 1, arbitrary: fc.double().map(String) },
    { weight: 1, arbitrary: fc.bigInt().map(String) },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  );
}

/** The ids that exist in the seeded groups: valid inputs the mutations start from. */
export function existingIds(groups: readonly GroupItems[]): string[] {
  return groups.flatMap((g) => [
    g.groupPair,
    `GROUP,${g.groupPair}`,
    g.topicId,
    g.commentId,
    g.attachmentId,
    g.taskId,
    g.fileId,
    g.eventId,
    g.memberId,
    ...g.folders,
  ]);
}

/** An existing id, or one bent out of shape (digits changed, parts dropped, repeated or padded). */
export function idValue(ids: readonly string[]): fc.Arbitrary<string> {
  const id = fc.constantFrom(...ids);
  return fc.oneof(
    { weight: 4, arbitrary: id },
    {
      weight: 1,
      arbitrary: fc
        .tuple(id, fc.nat({ max: 9 }))
        .map(([v, d]) => v.replace(/[0-9]+(?!.*[0-9])/, (n) => String(Number(n) + d + 1))),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(id, fc.nat()).map(([v, n]) =>
        v
          .split(",")
          .slice(0, n % (v.split(",").length + 1))
          .join(","),
      ),
    },
    { weight: 1, arbitrary: id.map((v) => `${v},${v}`) },
    { weight: 1, arbitrary: fc.tuple(id, absurdValue()).map(([v, a]) => `${v}${a}`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(id, fc.constantFrom(" ", "\t", "%20", "\u3000", ",", ":"))
        .map(([v, pad]) => `${pad}${v}${pad}`),
    },
    { weight: 1, arbitrary: id.map((v) => v.toLowerCase()) },
  );
}

/** Any value a fuzzed field or parameter gets. */
export function fieldValue(ids: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof({ weight: 3, arbitrary: idValue(ids) }, { weight: 3, arbitrary: absurdValue() });
}
