// Atom request bodies: every write the interface knows, built as trees from the seeded ids, then
// bent (fields dropped or doubled, wrong namespaces, huge attributes, deep nesting) and broken
// as bytes (cut off, forbidden characters, invalid UTF-8, DOCTYPEs and entities).
import fc from "fast-check";
import { NS } from "../../../src/atom/namespaces.js";
import { absurdValue, idValue, nastyCharacter } from "./values.js";

/** An element: qualified name, attributes, children (elements or text). */
export interface XNode {
  readonly name: string;
  readonly attrs: ReadonlyArray<readonly [string, string]>;
  readonly children: ReadonlyArray<XNode | string>;
}

const el = (
  name: string,
  attrs: ReadonlyArray<readonly [string, string]> = [],
  children: ReadonlyArray<XNode | string> = [],
): XNode => ({ name, attrs, children });

/** Text of a title, summary or comment: limits at their boundaries, hostile characters, anything. */
function textValue(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 2, arbitrary: absurdValue() },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "x".repeat(200),
        "x".repeat(201),
        "😀".repeat(200),
        "😀".repeat(201),
        "x".repeat(20_000),
        "x".repeat(20_001),
        "\r\n".repeat(100),
      ),
    },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 60 }) },
  );
}

// "answer": a participant's answer to an event (docs/api.md "Events").
const OPERATIONS = ["insert", "update", "delete", "lock", "unlock", "answer"];

/** The writes of the interface (board, comment, like, favorite, confirm), aimed at seeded ids. */
function template(ids: readonly string[]): fc.Arbitrary<XNode> {
  const id = idValue(ids);
  const text = textValue();
  const op = (type: string) => el("cbl:operation", [["type", type]]);
  const opType = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...OPERATIONS) },
    { weight: 1, arbitrary: fc.constantFrom("INSERT", "Delete", " lock ", "", "confirm", "upsert") },
    { weight: 1, arbitrary: absurdValue() },
  );
  return fc.oneof(
    fc
      .tuple(id, text, text)
      .map(([g, t, s]) =>
        el(
          "feed",
          [],
          [
            op("insert"),
            el(
              "entry",
              [],
              [el("cbl:group", [["id", g]]), el("title", [], [t]), el("summary", [["type", "text"]], [s])],
            ),
          ],
        ),
      ),
    fc
      .tuple(opType, id, text, text)
      .map(([o, i, t, s]) =>
        el(
          "feed",
          [],
          [op(o), el("entry", [], [el("id", [], [i]), el("title", [], [t]), el("summary", [["type", "text"]], [s])])],
        ),
      ),
    fc
      .tuple(id, text)
      .map(([i, s]) => el("feed", [], [el("id", [], [i]), el("entry", [], [el("summary", [["type", "text"]], [s])])])),
    fc
      .tuple(id, text, fc.constantFrom("1", "0", "-1", "99", "abc", ""))
      .map(([i, s, r]) =>
        el(
          "feed",
          [],
          [op("insert"), el("id", [], [i]), el("entry", [], [el("summary", [], [s]), el("cblCmnt:replyTo", [], [r])])],
        ),
      ),
    fc.tuple(opType, id).map(([o, i]) => el("feed", [], [op(o), el("entry", [], [el("id", [], [i])])])),
    fc.array(id, { minLength: 1, maxLength: 4 }).map((list) =>
      el(
        "feed",
        [],
        list.map((i) => el("entry", [], [el("id", [], [i])])),
      ),
    ),
    fc.tuple(id, text).map(([i, t]) => el("entry", [], [el("id", [], [i]), el("title", [], [t])])),
    eventWrite(id, text, opType),
    taskWrite(id, text, opType),
  );
}

const DUES = ["2026-04-02", "2026-04-02T09:30:00Z", "1899-12-31", "2100-12-31", "2026-02-30", "", "x"];

/** A personal task write (docs/api.md "Personal ToDo"): due date, all-day flag, priority, state. */
function taskWrite(id: fc.Arbitrary<string>, text: fc.Arbitrary<string>, opType: fc.Arbitrary<string>) {
  const due = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...DUES) }, { weight: 1, arbitrary: absurdValue() });
  return fc
    .tuple(
      opType,
      id,
      text,
      due,
      fc.constantFrom("true", "false", "x"),
      fc.constantFrom("S", "A", "c", "Z", ""),
      fc.constantFrom("COMPLETED", "完了", "Not started", "DONE", ""),
    )
    .map(([o, i, t, d, allDay, priority, status]) =>
      el(
        "feed",
        [],
        [
          el("cbl:operation", [["type", o]]),
          el(
            "entry",
            [],
            [
              el("id", [], [i]),
              el("title", [], [t]),
              el("cbl:when", [
                ["endTime", d],
                ["allday", allDay],
              ]),
              el("cblTsk:priority", [], [priority]),
              el("cblTsk:status", [], [status]),
              el("cbl:task", [["valueString", status]]),
            ],
          ),
        ],
      ),
    );
}

const TIMES = ["2026-04-02T00:00:00Z", "2026-04-02", "2027-04-03T00:00:01Z", "2026-02-30T00:00:00Z", "", "x"];
const RULES = ["FREQ=DAILY", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=3", "FREQ=MONTHLY;BYDAY=1MO", "FREQ=HOURLY", ""];

/**
 * An event write (docs/api.md "Events"): times, all-day, a zone, a rule with exceptions,
 * participants (with an answer, as `cbl:operation type="answer"` reads it); without the group and
 * participants (a personal event's write) one time in two.
 */
function eventWrite(id: fc.Arbitrary<string>, text: fc.Arbitrary<string>, opType: fc.Arbitrary<string>) {
  const time = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...TIMES) }, { weight: 1, arbitrary: absurdValue() });
  const shared = (node: XNode, yes: boolean): XNode[] => (yes ? [node] : []);
  return fc
    .tuple(
      opType,
      id,
      text,
      time,
      time,
      fc.constantFrom(...RULES),
      fc.constantFrom("true", "True", "no"),
      id,
      fc.boolean(),
      fc.constantFrom("attending", "maybe", "declined", " Maybe ", "yes", ""),
    )
    .map(([o, i, t, start, end, rule, allDay, who, group, answer]) =>
      el(
        "feed",
        [],
        [
          el("cbl:operation", [["type", o]]),
          el(
            "entry",
            [],
            [
              el("id", [], [i]),
              ...shared(el("cbl:group", [["id", i]]), group),
              el("title", [], [t]),
              el("cbl:when", [
                ["startTime", start],
                ["endTime", end],
              ]),
              el("cblSch:allDay", [], [allDay]),
              el("cblSch:timeZone", [], ["Europe/Berlin"]),
              el(
                "cblSch:recurrence",
                [],
                [
                  el("cblSch:rule", [], [rule]),
                  el("cbl:when", [
                    ["startTime", start],
                    ["endTime", end],
                  ]),
                  el("cblSch:exception", [["startTime", start]]),
                ],
              ),
              ...shared(
                el("cbl:who", [
                  ["id", who],
                  ["answer", answer],
                ]),
                group,
              ),
            ],
          ),
        ],
      ),
    );
}

// Declarations on the root; a mutation may change or drop one (wrong or undeclared namespace).
const DECLARATIONS: ReadonlyArray<readonly [string, string]> = Object.entries(NS).map(
  ([prefix, uri]) => [prefix === "atom" ? "xmlns" : `xmlns:${prefix}`, uri] as const,
);
const WRONG_URIS = [
  "",
  "http://www.w3.org/2005/Atom/",
  "http://www.w3.org/2005/atom",
  "urn:x",
  NS.cbl,
  NS.atom,
  "http://schemas.cybozulive.com/common/2011",
];

/** Changes the tree at one place. */
type TreeMutation = (node: XNode) => XNode;

/** Applies `change` to the `index`-th element in document order (modulo their count). */
function atElement(root: XNode, index: number, change: (node: XNode) => XNode): XNode {
  let count = 0;
  const total = (n: XNode): number =>
    1 + n.children.reduce<number>((sum, c) => sum + (typeof c === "string" ? 0 : total(c)), 0);
  const target = index % total(root);
  const walk = (n: XNode): XNode => {
    if (count++ === target) return change(n);
    return { ...n, children: n.children.map((c) => (typeof c === "string" ? c : walk(c))) };
  };
  return walk(root);
}

function treeMutation(ids: readonly string[]): fc.Arbitrary<TreeMutation> {
  const at = fc.nat();
  const prefixes = fc.constantFrom("", "cbl:", "cblBrd:", "cblCmnt:", "dc:", "undeclared:", "xml:", "xmlns:");
  return fc.oneof(
    fc.tuple(at, fc.nat()).map(
      ([i, j]): TreeMutation =>
        (root) =>
          atElement(root, i, (n) => ({
            ...n,
            children: n.children.filter((_, k) => k !== j % Math.max(1, n.children.length)),
          })),
    ),
    fc.tuple(at, fc.nat()).map(
      ([i, j]): TreeMutation =>
        (root) =>
          atElement(root, i, (n) => ({
            ...n,
            children: n.children.flatMap((c, k) => (k === j % Math.max(1, n.children.length) ? [c, c] : [c])),
          })),
    ),
    fc.tuple(at, fc.oneof(absurdValue(), idValue(ids))).map(
      ([i, t]): TreeMutation =>
        (root) =>
          atElement(root, i, (n) => ({ ...n, children: [...n.children.filter((c) => typeof c !== "string"), t] })),
    ),
    fc.tuple(at, fc.constantFrom(10_000, 300_000, 1_100_000), fc.constantFrom("a", "&amp;", "😀", "\t")).map(
      ([i, size, unit]): TreeMutation =>
        (root) =>
          atElement(root, i, (n) => ({
            ...n,
            attrs: [...n.attrs.filter(([k]) => k !== "id"), ["id", unit.repeat(Math.ceil(size / unit.length))]],
          })),
    ),
    fc.tuple(at, prefixes).map(
      ([i, p]): TreeMutation =>
        (root) =>
          atElement(root, i, (n) => ({ ...n, name: `${p}${n.name.replace(/^[^:]*:/, "")}` })),
    ),
    fc.tuple(fc.nat(), fc.constantFrom(...WRONG_URIS)).map(([i, uri]): TreeMutation => (root) => ({
      ...root,
      attrs: [...root.attrs, [`__decl${i % DECLARATIONS.length}`, uri]],
    })),
    fc.tuple(at, fc.integer({ min: 1, max: 200 })).map(
      ([i, depth]): TreeMutation =>
        (root) =>
          atElement(root, i, (n) =>
            Array.from({ length: depth }).reduce<XNode>((inner) => el("entry", [], [inner]), n),
          ),
    ),
    fc.constantFrom(20, 10_001).map((count): TreeMutation => (root) => ({
      ...root,
      children: [...root.children, ...Array.from({ length: count }, () => el("link"))],
    })),
    fc.tuple(at, fc.constantFrom(...OPERATIONS, "x")).map(
      ([i, type]): TreeMutation =>
        (root) =>
          atElement(root, i, (n) => ({ ...n, children: [el("cbl:operation", [["type", type]]), ...n.children] })),
    ),
    fc
      .tuple(
        at,
        fc.constantFrom("cblStar:set", "cbl:group", "cblBrd:allowEdit", "foreign:thing", "entry", "feed", "id"),
      )
      .map(
        ([i, name]): TreeMutation =>
          (root) =>
            atElement(root, i, (n) => ({ ...n, children: [...n.children, el(name, [["id", "1:1"]], ["x"])] })),
      ),
  );
}

const escapeText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, "&quot;");

/** Writes the tree; the root carries every prefix declaration (some overridden by `__declN`). */
export function serialize(root: XNode): string {
  const overrides = new Map(
    root.attrs.filter(([k]) => k.startsWith("__decl")).map(([k, v]) => [Number(k.slice(6)), v]),
  );
  const declarations = DECLARATIONS.map(([name, uri], i) => ` ${name}="${escapeAttr(overrides.get(i) ?? uri)}"`).join(
    "",
  );
  const write = (n: XNode, top: boolean): string => {
    const attrs = n.attrs
      .filter(([k]) => !k.startsWith("__decl"))
      .map(([k, v]) => ` ${k}="${escapeAttr(v)}"`)
      .join("");
    const inner = n.children.map((c) => (typeof c === "string" ? escapeText(c) : write(c, false))).join("");
    return `<${n.name}${top ? declarations : ""}${attrs}>${inner}</${n.name}>`;
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${write(root, true)}`;
}

const CHARACTER_REFERENCES = [
  "&#0;",
  "&#x1;",
  "&#xFFFE;",
  "&#xD800;",
  "&#1114112;",
  "&#x110000;",
  "&#x1F600;",
  "&unknown;",
  "&amp",
  "&#;",
  "&#x;",
];
const PROLOGUES = [
  '<!DOCTYPE feed [<!ENTITY e "boom">]>',
  '<!DOCTYPE lolz [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]>',
  '<!DOCTYPE feed SYSTEM "file:///etc/passwd">',
  '<!DOCTYPE feed [<!ENTITY x SYSTEM "http://127.0.0.1:1/x">]>',
  "<?xml-stylesheet href='x'?>",
  "<!-- comment -->",
];
const BAD_UTF8 = [
  [0xc3, 0x28],
  [0xff],
  [0xfe, 0xff],
  [0xed, 0xa0, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xc0, 0xaf],
  [0xe6, 0x97],
  [0xf4, 0x90, 0x80, 0x80],
];

/** Byte-level damage to a serialized body. */
type ByteMutation = (body: Buffer) => Buffer;

function byteMutation(): fc.Arbitrary<ByteMutation> {
  const at = fc.nat();
  const insert = (bytes: Buffer, i: number, extra: Buffer) => {
    const k = i % (bytes.length + 1);
    return Buffer.concat([bytes.subarray(0, k), extra, bytes.subarray(k)]);
  };
  return fc.oneof(
    at.map(
      (i): ByteMutation =>
        (b) =>
          b.subarray(0, i % (b.length + 1)),
    ),
    fc.tuple(at, nastyCharacter()).map(
      ([i, c]): ByteMutation =>
        (b) =>
          insert(b, i, Buffer.from(c, "utf8")),
    ),
    fc.tuple(at, fc.constantFrom(...CHARACTER_REFERENCES)).map(
      ([i, r]): ByteMutation =>
        (b) =>
          insert(b, i, Buffer.from(r)),
    ),
    fc.tuple(at, fc.constantFrom(...BAD_UTF8)).map(
      ([i, bytes]): ByteMutation =>
        (b) =>
          insert(b, i, Buffer.from(bytes)),
    ),
    fc.constantFrom(...PROLOGUES).map(
      (p): ByteMutation =>
        (b) =>
          Buffer.from(
            b.toString("utf8").replace(/^(<\?xml[^>]*\?>)?/, (decl) => `${decl}${p}`),
            "utf8",
          ),
    ),
    fc.constantFrom("\uFEFF", "\uFFFE", "  \n", "junk").map(
      (lead): ByteMutation =>
        (b) =>
          Buffer.concat([Buffer.from(lead, "utf8"), b]),
    ),
    fc.constantFrom("UTF-16", "ISO-8859-1", "EBCDIC", "").map(
      (enc): ByteMutation =>
        (b) =>
          Buffer.from(b.toString("utf8").replace('encoding="UTF-8"', `encoding="${enc}"`), "utf8"),
    ),
    fc
      .tuple(
        at,
        fc.constantFrom("<![CDATA[x]]>", "]]>", "<?xml version='1.0'?>", "<!-- -->", "<", "</feed>", "<feed>", "&"),
      )
      .map(
        ([i, s]): ByteMutation =>
          (b) =>
            insert(b, i, Buffer.from(s)),
      ),
    fc.tuple(at, fc.integer({ min: 0, max: 255 })).map(([i, v]): ByteMutation => (b) => {
      const c = Buffer.from(b);
      if (c.length > 0) c[i % c.length] = v;
      return c;
    }),
    // Nesting far past any stack a recursive parser would have; never closed.
    fc.constantFrom(1_000, 100_000).map(
      (depth): ByteMutation =>
        () =>
          Buffer.from(`<feed xmlns="${NS.atom}">${"<entry>".repeat(depth)}`),
    ),
    // Thousands of attributes on one element, some of them twice.
    fc.constantFrom(5_000, 30_000).map(
      (count): ByteMutation =>
        (b) =>
          Buffer.from(
            b
              .toString("utf8")
              .replace(/<entry/, `<entry ${Array.from({ length: count }, (_, i) => `a${i % 4_000}="x"`).join(" ")}`),
          ),
    ),
  );
}

/** An Atom body: a write of the interface as it is (a third: they reach the services), bent as a tree, broken as bytes, or both. */
export function xmlBody(ids: readonly string[]): fc.Arbitrary<Buffer> {
  const trees: fc.Arbitrary<readonly TreeMutation[]> = fc.array(treeMutation(ids), { minLength: 1, maxLength: 3 });
  const bytes: fc.Arbitrary<readonly ByteMutation[]> = fc.array(byteMutation(), { minLength: 1, maxLength: 2 });
  const none = fc.constant([] as const);
  return fc
    .oneof(
      { weight: 2, arbitrary: fc.tuple(template(ids), none, none) },
      fc.tuple(template(ids), trees, none),
      fc.tuple(template(ids), none, bytes),
      fc.tuple(template(ids), trees, bytes),
    )
    .map(([tree, bends, breaks]: readonly [XNode, readonly TreeMutation[], readonly ByteMutation[]]) => {
      const body: Buffer = Buffer.from(serialize(bends.reduce((node, bend) => bend(node), tree)), "utf8");
      return breaks.reduce<Buffer>((b, damage) => damage(b), body);
    });
}
