import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DomainError } from "../../src/domain/errors.js";
import { SEARCH_LIMITS } from "../../src/domain/limits.js";
import { excerptOf, excerptText, parseSearchQuery } from "../../src/domain/search.js";

const refused = (code: string) => (error: unknown) => error instanceof DomainError && error.code === code;

describe("parseSearchQuery", () => {
  it("reads words, phrases and exclusions, separated by either kind of space", () => {
    assert.deepEqual(parseSearchQuery('deploy  "on friday"\u3000検索テスト -freeze -"old plan"'), {
      terms: ["deploy", "on friday", "検索テスト"],
      excluded: ["freeze", "old plan"],
      mode: "index",
    });
  });

  it("runs an unclosed quote to the end, drops empty phrases and repeated terms in any case", () => {
    assert.deepEqual(parseSearchQuery('plan "" Plan "next step').terms, ["plan", "next step"]);
  });

  it("keeps a lone or inner hyphen as text", () => {
    assert.deepEqual(parseSearchQuery("e-mail - x-ray").terms, ["e-mail", "-", "x-ray"]);
  });

  it("scans when a term has fewer than three characters; exclusions do not count", () => {
    assert.equal(parseSearchQuery("検索").mode, "scan");
    assert.equal(parseSearchQuery("release ok").mode, "scan");
    assert.equal(parseSearchQuery("release -ok").mode, "index");
    assert.equal(parseSearchQuery("𠀋𠀋𠀋").mode, "index", "characters, not UTF-16 units");
  });

  it("refuses a query with nothing to look for", () => {
    for (const text of ["", "   ", "\u3000", "-deploy", '""', '-"a b"']) {
      assert.throws(() => parseSearchQuery(text), refused("SEARCH_QUERY_EMPTY"), text);
    }
  });

  it("accepts 200 characters and refuses 201", () => {
    assert.equal(parseSearchQuery("𠀋".repeat(SEARCH_LIMITS.queryMaxChars)).terms.length, 1);
    assert.throws(
      () => parseSearchQuery("a".repeat(SEARCH_LIMITS.queryMaxChars + 1)),
      refused("SEARCH_QUERY_TOO_LONG"),
    );
  });
});

describe("excerptOf", () => {
  it("cuts around the first hit of any term and marks every hit", () => {
    const text = `${"x".repeat(100)} the Deploy plan ${"y".repeat(100)}`;
    const parts = excerptOf(text, ["deploy", "plan"]);
    assert.equal(parts[0]?.text, "…");
    assert.equal(parts.at(-1)?.text, "…");
    assert.deepEqual(
      parts.filter((part) => part.hit).map((part) => part.text),
      ["Deploy", "plan"],
    );
    assert.ok(excerptText(parts).length < 2 * SEARCH_LIMITS.excerptContextChars + 20);
  });

  it("puts everything on one line and starts at the beginning when no term is in the text", () => {
    assert.equal(excerptText(excerptOf("line one\n\nline two", ["absent"])), "line one line two");
  });

  it("keeps the whole hit of a long phrase", () => {
    const phrase = "z".repeat(120);
    assert.ok(excerptText(excerptOf(`a ${phrase} b`, [phrase])).includes(phrase));
  });
});
