import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { NS } from "../../src/atom/namespaces.js";
import { attribute, child, children, childText, parseXml, XML_LIMITS, XmlParseError } from "../../src/atom/parse.js";
import type { XmlErrorCode } from "../../src/atom/parse.js";

const ATOM = NS.atom;
const ENTRY = `<entry xmlns="${ATOM}"><title>t</title></entry>`;

function refusal(source: string, limits = XML_LIMITS): XmlParseError {
  try {
    parseXml(source, limits);
  } catch (error) {
    assert.ok(error instanceof XmlParseError, `expected XmlParseError, got ${String(error)}`);
    return error;
  }
  return assert.fail(`accepted: ${source.slice(0, 80)}`);
}

function assertRefused(source: string, code: XmlErrorCode, limits = XML_LIMITS): XmlParseError {
  const error = refusal(source, limits);
  assert.equal(error.code, code, error.message);
  assert.ok(error.message.length < 400, `message too long: ${error.message.length} characters`);
  return error;
}

function nested(depth: number): string {
  return `${"<a>".repeat(depth)}${"</a>".repeat(depth)}`;
}

describe("parseXml: namespaces", () => {
  it("resolves URIs whatever prefixes the client chose", () => {
    const root = parseXml(
      `<a:feed xmlns:a="${ATOM}" xmlns:c="${NS.cbl}"><a:id>GROUP,1:1</a:id>` +
        `<a:entry><a:title>T</a:title><c:operation type="INSERT"/></a:entry></a:feed>`,
    );
    assert.equal(root.ns, ATOM);
    assert.equal(root.local, "feed");
    const entry = child(root, ATOM, "entry");
    assert.ok(entry);
    assert.equal(childText(entry, ATOM, "title"), "T");
    const operation = child(entry, NS.cbl, "operation");
    assert.equal(operation && attribute(operation, "type"), "INSERT");
  });

  it("reads the default namespace and does not match a familiar prefix bound elsewhere", () => {
    const root = parseXml(`<entry xmlns="${ATOM}" xmlns:cbl="urn:not-cybozu"><cbl:operation type="insert"/></entry>`);
    assert.equal(root.ns, ATOM);
    assert.equal(child(root, NS.cbl, "operation"), undefined);
    assert.equal(child(root, "urn:not-cybozu", "operation")?.local, "operation");
  });

  it("keys attributes by local name or {uri}local and leaves out xmlns declarations", () => {
    const root = parseXml(`<x xmlns="${ATOM}" xmlns:p="${NS.cbl}" id="1" p:id="2" xml:lang="ja"/>`);
    assert.deepEqual(
      [...root.attributes.entries()],
      [
        ["id", "1"],
        [`{${NS.cbl}}id`, "2"],
        ["{http://www.w3.org/XML/1998/namespace}lang", "ja"],
      ],
    );
    assert.equal(attribute(root, "id"), "1");
    assert.equal(attribute(root, "id", NS.cbl), "2");
    assert.equal(attribute(root, "missing"), undefined);
  });

  it("leaves elements without a namespace in the empty namespace", () => {
    const root = parseXml("<entry><title>x</title></entry>");
    assert.equal(root.ns, "");
    assert.equal(childText(root, "", "title"), "x");
    assert.equal(childText(root, ATOM, "title"), undefined);
  });
});

describe("parseXml: text and structure", () => {
  it("concatenates the element's own text and CDATA, not its descendants'", () => {
    const root = parseXml("<a>one <![CDATA[<two> & ]]>three<b>not mine</b> four<!-- no --></a>");
    assert.equal(root.text, "one <two> & three four");
    assert.equal(root.children[0]?.text, "not mine");
  });

  it("decodes the five predefined entities and character references", () => {
    assert.equal(parseXml("<a>&amp;&lt;&gt;&quot;&apos;&#65;&#x1F600;&#13;</a>").text, "&<>\"'A😀\r");
  });

  it("normalises line ends in text and whitespace in attribute values, as XML requires", () => {
    const root = parseXml('<a v="1\t2\n3">x\r\ny\rz</a>');
    assert.equal(root.text, "x\ny\nz");
    assert.equal(attribute(root, "v"), "1 2 3");
  });

  it("ignores processing instructions, comments and a byte order mark", () => {
    const root = parseXml(
      '\uFEFF<?xml version="1.0" encoding="UTF-8"?><?xml-stylesheet href="a.xsl"?><!--c--><a>x<?php echo 1 ?>y</a>',
    );
    assert.equal(root.text, "xy");
    assert.equal(root.children.length, 0);
  });

  it("offers child, children and childText readers", () => {
    const root = parseXml(`<f xmlns="${ATOM}"><e>1</e><x/><e>2</e><t></t></f>`);
    assert.equal(child(root, ATOM, "e")?.text, "1");
    assert.deepEqual(
      children(root, ATOM, "e").map((e) => e.text),
      ["1", "2"],
    );
    assert.deepEqual(children(root, NS.cbl, "e"), []);
    assert.equal(childText(root, ATOM, "t"), "");
    assert.equal(childText(root, ATOM, "missing"), undefined);
  });
});

describe("parseXml: DOCTYPE probes (stack.md §4c) are refused before anything is expanded or fetched", () => {
  const entity = (declarations: string, body: string): string =>
    `<?xml version="1.0"?><!DOCTYPE entry [${declarations}]><entry xmlns="${ATOM}"><title>${body}</title></entry>`;
  const laughs = Array.from({ length: 10 }, (_, i) =>
    i === 0 ? '<!ENTITY lol0 "lol">' : `<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`,
  ).join("");
  const staticProbes: Record<string, string> = {
    doctype_only: `<!DOCTYPE entry>${ENTRY}`,
    internal: entity('<!ENTITY e "EXPANDED">', "&e;"),
    billion: entity(laughs, "&lol9;"),
    quadratic: entity(`<!ENTITY a "${"x".repeat(50_000)}">`, "&a;".repeat(20_000)),
    xxe_file: entity('<!ENTITY x SYSTEM "file:///etc/passwd">', "&x;"),
  };

  for (const [name, source] of Object.entries(staticProbes)) {
    // How fast they are refused is measured by `npm run bench:xml`, not asserted here.
    it(name, () => {
      const error = assertRefused(source, "XML_DOCTYPE_FORBIDDEN");
      assert.doesNotMatch(error.message, /EXPANDED|root:|lol/);
    });
  }

  it("xxe_http, ext_dtd and a parameter entity: no request reaches a listener", async () => {
    let fetches = 0;
    const server = createServer((_request, response) => {
      fetches += 1;
      response.end('<!ENTITY leak "LEAKED">');
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/evil.dtd`;
    try {
      assertRefused(entity(`<!ENTITY x SYSTEM "${url}">`, "&x;"), "XML_DOCTYPE_FORBIDDEN");
      assertRefused(`<!DOCTYPE entry SYSTEM "${url}">${ENTRY}`, "XML_DOCTYPE_FORBIDDEN");
      assertRefused(`<!DOCTYPE entry PUBLIC "-//X//DTD X//EN" "${url}">${ENTRY}`, "XML_DOCTYPE_FORBIDDEN");
      assertRefused(entity(`<!ENTITY % p SYSTEM "${url}"> %p;`, "&leak;"), "XML_DOCTYPE_FORBIDDEN");
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(fetches, 0);
    } finally {
      server.close();
    }
  });

  it("a DOCTYPE anywhere else is refused too", () => {
    assertRefused(`<a><!DOCTYPE a></a>`, "XML_DOCTYPE_FORBIDDEN");
    assertRefused(`<a/><!DOCTYPE a>`, "XML_DOCTYPE_FORBIDDEN");
  });

  it("an entity that was never declared is malformed, not kept as literal text", () => {
    assertRefused(`<entry xmlns="${ATOM}"><title>&e;</title></entry>`, "XML_MALFORMED");
  });
});

describe("parseXml: limits", () => {
  it("accepts 32 levels of nesting and refuses 33", () => {
    assert.equal(parseXml(nested(32)).local, "a");
    assertRefused(nested(33), "XML_TOO_DEEP");
    assertRefused(nested(5), "XML_TOO_DEEP", { ...XML_LIMITS, maxDepth: 4 });
  });

  it("accepts 10,000 elements and refuses 10,001", () => {
    assert.equal(parseXml(`<r>${"<b/>".repeat(9_999)}</r>`).children.length, 9_999);
    assertRefused(`<r>${"<b/>".repeat(10_000)}</r>`, "XML_TOO_MANY_ELEMENTS");
  });

  it("measures size in UTF-8 bytes and allows exactly the limit", () => {
    // "<a>" + "</a>" is 7 bytes; é is 2 bytes in UTF-8 but 1 UTF-16 code unit.
    const atLimit = `<a>${"é".repeat(524_284)}x</a>`;
    assert.equal(Buffer.byteLength(atLimit), XML_LIMITS.maxBytes);
    assert.equal(parseXml(atLimit).text.length, 524_285);
    const overByOne = atLimit.replace("x", "é");
    assert.ok(overByOne.length < XML_LIMITS.maxBytes);
    assertRefused(overByOne, "XML_TOO_LARGE");
    assertRefused("<a>12345</a>", "XML_TOO_LARGE", { ...XML_LIMITS, maxBytes: 11 });
    assert.equal(parseXml("<a>1234</a>", { ...XML_LIMITS, maxBytes: 11 }).text, "1234");
  });

  it("checks the size before parsing", () => {
    assertRefused(`<a>${"x".repeat(XML_LIMITS.maxBytes)}`, "XML_TOO_LARGE");
  });
});

describe("parseXml: malformed input", () => {
  const cases: Record<string, string> = {
    empty: "",
    "whitespace only": " \n\t",
    "not XML": "hello",
    JSON: '{"entry":{"title":"x"}}',
    "two roots": "<a/><b/>",
    "text before the root": "x<a/>",
    "text after the root": "<a/>x",
    "unclosed element": "<a><b></b>",
    "mismatched end tag": "<a></b>",
    "unbound prefix": "<cbl:operation/>",
    "duplicate attribute": '<a x="1" x="2"/>',
    "duplicate attribute via two prefixes": `<a xmlns:p="${NS.cbl}" xmlns:q="${NS.cbl}" p:x="1" q:x="2"/>`,
    "bare ampersand": "<a>fish & chips</a>",
    "< in an attribute": '<a x="<"/>',
    "unquoted attribute": "<a x=1/>",
    "forbidden control character": "<a>\u0001</a>",
    "forbidden character reference": "<a>&#1;</a>",
    "]]> in text": "<a>]]></a>",
    "XML declaration not first": ' <?xml version="1.0"?><a/>',
  };
  for (const [name, source] of Object.entries(cases)) {
    it(name, () => void assertRefused(source, "XML_MALFORMED"));
  }

  it("says where, and never echoes a huge input", () => {
    const error = assertRefused(`<a>\n  <${"n".repeat(100_000)} x=1/></a>`, "XML_MALFORMED");
    assert.match(error.message, /line 2, column \d+/);
    assert.equal(error.name, "XmlParseError");
  });
});
