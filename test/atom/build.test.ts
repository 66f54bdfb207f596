import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { element, escapeAttribute, escapeText, utcDate, utcTimestamp, XML_DECLARATION } from "../../src/atom/build.js";
import { FEED_NAMESPACES, NS } from "../../src/atom/namespaces.js";
import { attribute, child, parseXml } from "../../src/atom/parse.js";

const REPLACEMENT = "\uFFFD";
const FORBIDDEN_C0 = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).filter(
  (char) => !"\t\n\r".includes(char),
);
const FORBIDDEN_OTHER = ["\uD800", "\uDBFF", "\uDC00", "\uDFFF", "\uDC00\uD800", "\uFFFE", "\uFFFF"];
const KEPT = ["😀", "👨‍👩‍👧", "\u{10FFFF}", "日本語", "\u007F\u0085\u2028", "\uFFFD", "'"];

// The oracle, written independently of build.ts: walk code points, so a valid pair stays one.
function sanitized(value: string): string {
  let out = "";
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    const forbidden =
      (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) ||
      (code >= 0xd800 && code <= 0xdfff) ||
      code === 0xfffe ||
      code === 0xffff;
    out += forbidden ? REPLACEMENT : char;
  }
  return out;
}

// mulberry32: a tiny deterministic generator, so a failing string can be reproduced from its index.
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const PIECES = [
  "&",
  "<",
  ">",
  '"',
  "'",
  "]]>",
  " ",
  "\t",
  "\n",
  "\r",
  "\r\n",
  "&amp;",
  "<![CDATA[",
  ...FORBIDDEN_C0,
  ...FORBIDDEN_OTHER,
  ...KEPT,
];

function generate(next: () => number): string {
  let out = "";
  const length = Math.floor(next() * 24);
  for (let i = 0; i < length; i += 1) {
    const roll = next();
    if (roll < 0.4) out += String.fromCharCode(0x20 + Math.floor(next() * 95));
    else if (roll < 0.55)
      out += String.fromCharCode(Math.floor(next() * 0x10000)); // any BMP unit, surrogates too
    else out += PIECES[Math.floor(next() * PIECES.length)] ?? "";
  }
  return out;
}

describe("escapeText and escapeAttribute", () => {
  it("escape the markup characters", () => {
    assert.equal(escapeText(`a&b<c>d"e'f`), `a&amp;b&lt;c&gt;d"e'f`);
    assert.equal(escapeAttribute(`a&b<c>d"e'f`), "a&amp;b&lt;c&gt;d&quot;e'f");
    assert.equal(escapeText("]]>"), "]]&gt;");
  });

  it("keep TAB and LF in text, escape CR so it is not turned into LF", () => {
    assert.equal(escapeText("a\tb\nc\rd"), "a\tb\nc&#13;d");
  });

  it("write TAB, LF and CR in attributes as references", () => {
    assert.equal(escapeAttribute("a\tb\nc\rd"), "a&#9;b&#10;c&#13;d");
  });

  it("return plain strings unchanged", () => {
    for (const plain of ["", "Topic title 1:12", "GROUP,1:12,BOARD,1:345", ...KEPT]) {
      assert.equal(escapeText(plain), plain);
      assert.equal(escapeAttribute(plain), plain);
    }
  });

  it("replace every C0 control but TAB, LF and CR with U+FFFD", () => {
    assert.equal(FORBIDDEN_C0.length, 29);
    for (const char of FORBIDDEN_C0) {
      assert.equal(escapeText(`a${char}b`), `a${REPLACEMENT}b`, `U+${char.charCodeAt(0).toString(16)}`);
      assert.equal(escapeAttribute(`a${char}b`), `a${REPLACEMENT}b`);
    }
  });

  it("replace lone surrogates, U+FFFE and U+FFFF with U+FFFD, keep pairs", () => {
    for (const char of FORBIDDEN_OTHER) {
      const expected = REPLACEMENT.repeat(char.length);
      assert.equal(escapeText(`x${char}y`), `x${expected}y`);
      assert.equal(escapeAttribute(`x${char}y`), `x${expected}y`);
    }
    assert.equal(escapeText("\uD83D\uDE00\uD83D"), `😀${REPLACEMENT}`);
    assert.equal(escapeAttribute("\uDE00😀&"), `${REPLACEMENT}😀&amp;`);
  });

  it("round-trip through parseXml for 3,000 generated strings", () => {
    const next = random(4287);
    for (let index = 0; index < 3_000; index += 1) {
      const value = generate(next);
      const expected = sanitized(value);
      const root = parseXml(`<r a="${escapeAttribute(value)}">${escapeText(value)}</r>`);
      assert.equal(root.text, expected, `text of string #${index}: ${JSON.stringify(value)}`);
      assert.equal(attribute(root, "a"), expected, `attribute of string #${index}: ${JSON.stringify(value)}`);
      const built = parseXml(element("r", { a: value }, value));
      assert.equal(built.text, expected);
      assert.equal(attribute(built, "a"), expected);
    }
  });
});

describe("timestamps", () => {
  it("writes UTC seconds with Z and no fraction", () => {
    assert.equal(utcTimestamp(0), "1970-01-01T00:00:00Z");
    assert.equal(utcTimestamp(Date.UTC(2024, 1, 29, 23, 59, 59, 999)), "2024-02-29T23:59:59Z");
    assert.equal(utcTimestamp(-1), "1969-12-31T23:59:59Z");
    assert.equal(utcTimestamp(Date.parse("9999-12-31T23:59:59.999Z")), "9999-12-31T23:59:59Z");
  });

  it("writes all-day dates as YYYY-MM-DD in UTC", () => {
    assert.equal(utcDate(Date.UTC(2024, 11, 31, 23, 30)), "2024-12-31");
    assert.equal(utcDate(0), "1970-01-01");
  });

  it("refuses times it cannot write in this format", () => {
    for (const bad of [
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Date.parse("9999-12-31T23:59:59.999Z") + 1,
      -62_167_219_200_001,
    ]) {
      assert.throws(() => utcTimestamp(bad), RangeError);
      assert.throws(() => utcDate(bad), RangeError);
    }
  });
});

describe("element", () => {
  it("writes an empty element with attributes in the given order, skipping undefined", () => {
    assert.equal(
      element("cbl:who", { valueString: 'A & "B"', id: "1:7", skipped: undefined, count: 3, on: false }),
      '<cbl:who valueString="A &amp; &quot;B&quot;" id="1:7" count="3" on="false"/>',
    );
    assert.equal(
      element("cbl:when", { endTime: "2024-01-02", allday: true }),
      '<cbl:when endTime="2024-01-02" allday="true"/>',
    );
  });

  it("writes escaped text, and an empty string as an open and close pair", () => {
    assert.equal(element("title", {}, "a < b & c"), "<title>a &lt; b &amp; c</title>");
    assert.equal(element("summary", { type: "text" }, ""), '<summary type="text"></summary>');
  });
});

describe("declaration and namespaces", () => {
  it("has the exact XML declaration", () => {
    assert.equal(XML_DECLARATION, '<?xml version="1.0" encoding="UTF-8"?>');
  });

  it("declares Atom as default and every prefix in table order", () => {
    assert.ok(
      FEED_NAMESPACES.startsWith(
        ' xmlns="http://www.w3.org/2005/Atom" xmlns:cbl="http://schemas.cybozulive.com/common/2010"',
      ),
    );
    const prefixes = [...FEED_NAMESPACES.matchAll(/xmlns(?::(\w+))?="/g)].map((match) => match[1] ?? "");
    assert.deepEqual(prefixes, [
      "",
      "cbl",
      "cblBrd",
      "cblCmnt",
      "cblGood",
      "cblStar",
      "cblTsk",
      "cblCbnt",
      "cblGrp",
      "cblPrfl",
      "cblNtf",
      "cblSch",
      "cblChat",
      "dc",
      "at",
    ]);
    // The newest prefix last (delta sync's tombstones, RFC 6721): readers matching literal names keep theirs.
    assert.ok(FEED_NAMESPACES.endsWith(' xmlns:at="http://purl.org/atompub/tombstones/1.0"'));
  });

  it("resolves every prefix to its URI when parsed back", () => {
    const body = Object.keys(NS)
      .filter((prefix) => prefix !== "atom")
      .map((prefix) => `<${prefix}:x/>`)
      .join("");
    const root = parseXml(`${XML_DECLARATION}<feed${FEED_NAMESPACES}><title/>${body}</feed>`);
    assert.equal(root.ns, NS.atom);
    assert.equal(child(root, NS.atom, "title")?.local, "title");
    assert.deepEqual(
      root.children.slice(1).map((c) => c.ns),
      Object.values(NS).slice(1),
    );
  });
});
