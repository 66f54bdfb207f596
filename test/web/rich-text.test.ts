import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { linkedText } from "../../src/web/rich-text.js";

const link = (href: string, text = href) => `<a href="${href}" rel="noopener nofollow">${text}</a>`;

describe("people's text on pages: web addresses become safe links", () => {
  it("links http and https addresses, escaped, and leaves the rest as escaped text", () => {
    assert.equal(
      linkedText("see https://example.com/a?b=1&c=2 now").value,
      `see ${link("https://example.com/a?b=1&amp;c=2")} now`,
    );
    assert.equal(linkedText("HTTP://Example.com").value, link("HTTP://Example.com"));
    assert.equal(linkedText("a <b> & 'c'").value, "a &lt;b&gt; &amp; &#39;c&#39;");
    assert.equal(
      linkedText("line one\nhttps://a.example\nline three").value,
      `line one\n${link("https://a.example")}\nline three`,
    );
  });

  it("never links another scheme, whatever it hides", () => {
    for (const hostile of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(document.cookie)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox",
      "ftp://example.com/file",
      "//example.com/protocol-relative",
      "https://",
      "http://:80/",
    ]) {
      const out = linkedText(hostile).value;
      assert.doesNotMatch(out, /<a /, hostile);
      assert.doesNotMatch(out, /<script/, hostile);
    }
    // A scheme glued to a word is not an address start: "xhttps://" stays text.
    assert.doesNotMatch(linkedText("xhttps://example.com").value, /<a /);
    // "javascript:https://..." links only the https address that follows.
    assert.equal(linkedText("javascript:https://e.example").value, `javascript:${link("https://e.example")}`);
  });

  it("ends the address at quotes and angle brackets, so no attribute or tag can be injected", () => {
    assert.equal(
      linkedText('https://e.example/"onmouseover="alert(1)').value,
      `${link("https://e.example/")}&quot;onmouseover=&quot;alert(1)`,
    );
    assert.equal(
      linkedText("https://e.example/<script>alert(1)</script>").value,
      `${link("https://e.example/")}&lt;script&gt;alert(1)&lt;/script&gt;`,
    );
    // A single quote may be inside a URL: it is escaped in the attribute and the text.
    assert.equal(linkedText("https://e.example/it's/x").value, link("https://e.example/it&#39;s/x"));
  });

  it("leaves sentence punctuation and unmatched brackets outside the link", () => {
    assert.equal(linkedText("Go to https://e.example.").value, `Go to ${link("https://e.example")}.`);
    assert.equal(linkedText("(see https://e.example/x)").value, `(see ${link("https://e.example/x")})`);
    assert.equal(linkedText("https://e.example/a, then?").value, `${link("https://e.example/a")}, then?`);
    assert.equal(linkedText("Really https://e.example/!?").value, `Really ${link("https://e.example/")}!?`);
    assert.equal(
      linkedText("https://en.wikipedia.org/wiki/Kairan_(place)").value,
      link("https://en.wikipedia.org/wiki/Kairan_(place)"),
      "balanced brackets stay",
    );
    assert.equal(
      linkedText("詳しくは https://e.example/doc を見てください。").value,
      `詳しくは ${link("https://e.example/doc")} を見てください。`,
    );
    assert.equal(linkedText("https://e.example/docを見て").value, `${link("https://e.example/doc")}を見て`);
  });

  it("links every address of a text", () => {
    assert.equal(
      linkedText("https://a.example and http://b.example/").value,
      `${link("https://a.example")} and ${link("http://b.example/")}`,
    );
  });
});
