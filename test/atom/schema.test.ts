// The Atom validator must be able to fail: each bad document below breaks one rule of RFC 4287,
// and the failure must carry libxml2's own words so that a broken presenter is easy to find.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { element, utcTimestamp, XML_DECLARATION } from "../../src/atom/build.js";
import { FEED_NAMESPACES } from "../../src/atom/namespaces.js";
import { assertValidAtom } from "../support/atom-schema.js";

const UPDATED = utcTimestamp(Date.UTC(2024, 0, 2, 3, 4, 5));

function entry(body: { id?: string; updated?: string; extra?: string } = {}): string {
  return [
    "<entry>",
    body.id ?? element("id", {}, "GROUP,1:12,BOARD,1:345"),
    element("title", {}, "Topic & <title>"),
    element("link", { rel: "alternate", href: "https://kairan.test/board?id=1&x=2" }),
    element("link", { rel: "mobile", href: "https://kairan.test/m/board?id=1" }),
    element("category", { term: "GROUP" }),
    `<author>${element("name", {}, "Ann")}${element("uri", {}, "1:7")}</author>`,
    body.updated ?? element("updated", {}, UPDATED),
    element("summary", { type: "text" }, "line one\nline two"),
    element("cbl:who", { valueString: "Ann", id: "1:7" }),
    element("cblBrd:allowEdit", {}, "true"),
    body.extra ?? "",
    "</entry>",
  ].join("");
}

function feed(entries: string, head = ""): string {
  return [
    XML_DECLARATION,
    `<feed${FEED_NAMESPACES}>`,
    element("title", {}, ""),
    element("id", {}, "GROUP,1:12"),
    element("link", { rel: "alternate", href: "https://kairan.test/group/1:12" }),
    `<author>${element("name", {}, "Ann")}${element("email", {}, "ann@example.test")}${element("uri", {}, "1:7")}</author>`,
    element("updated", {}, UPDATED),
    element("cbl:totalCount", {}, "1"),
    head,
    entries,
    "</feed>",
  ].join("");
}

// Comments embedded in a topic: an Atom feed inside a foreign element is legal (anyElement).
const NESTED = `<cblCmnt:comments>${feed("").replace(XML_DECLARATION, "")}</cblCmnt:comments>`;

async function rejection(xml: string): Promise<string> {
  const error = await assertValidAtom(xml).then(
    () => assert.fail("the validator accepted an invalid document"),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof assert.AssertionError, "a failed validation is an AssertionError");
  return error.message;
}

describe("assertValidAtom (RFC 4287 Appendix B, libxml2)", () => {
  it("accepts a feed with cbl: and cblBrd: extensions, a nested feed and an empty title", async () => {
    await assertValidAtom(feed(entry({ extra: NESTED })));
  });

  it("accepts a bare entry document and xhtml content", async () => {
    const content = `<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>hi</p></div></content>`;
    await assertValidAtom(
      `${XML_DECLARATION}${entry({ extra: content }).replace("<entry>", `<entry${FEED_NAMESPACES}>`)}`,
    );
  });

  it("rejects an entry without an id", async () => {
    const message = await rejection(feed(entry({ id: "" })));
    assert.match(message, /Relax-NG validity error/);
    assert.match(message, /element entry/);
  });

  it("rejects an updated that is not an RFC 3339 date-time", async () => {
    const message = await rejection(feed(entry({ updated: element("updated", {}, "2024-01-02 03:04:05") })));
    assert.match(message, /dateTime doesn't allow value '2024-01-02 03:04:05'/);
  });

  it("rejects an element in the Atom namespace that Atom does not define", async () => {
    const message = await rejection(feed(entry(), element("bogus", {}, "x")));
    assert.match(message, /element bogus: Relax-NG validity error/);
  });

  it("rejects a link without href and a feed without updated", async () => {
    assert.match(await rejection(feed(entry(), '<link rel="self"/>')), /Relax-NG validity error/);
    assert.match(
      await rejection(feed(entry()).replace(element("updated", {}, UPDATED), "")),
      /Relax-NG validity error/,
    );
  });

  it("rejects a document that is not well-formed, quoting the parser", async () => {
    assert.match(await rejection(feed(entry()).replace("</feed>", "")), /Premature end of data|parser error/);
  });
});
