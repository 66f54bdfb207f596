import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { escapeHtml } from "../../src/web/layout.js";
import { markdownHtml } from "../../src/web/markdown.js";

const html = (text: string) => markdownHtml(text).value;
const link = (href: string, text = href) => `<a href="${href}" rel="noopener nofollow">${text}</a>`;

describe("people's text on pages: a safe subset of Markdown", () => {
  it("renders lists, emphasis, quotes, code and tables; line breaks stay", () => {
    assert.equal(html("- one\n- two"), "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n");
    assert.equal(html("1. first\n2. second"), "<ol>\n<li>first</li>\n<li>second</li>\n</ol>\n");
    assert.equal(html("**bold** *it* ~~gone~~"), "<p><strong>bold</strong> <em>it</em> <s>gone</s></p>\n");
    assert.equal(html("> quoted"), "<blockquote>\n<p>quoted</p>\n</blockquote>\n");
    assert.equal(html("`a < b`"), "<p><code>a &lt; b</code></p>\n");
    assert.equal(html("```\nif (a < b) {}\n```"), "<pre><code>if (a &lt; b) {}\n</code></pre>\n");
    assert.equal(html("line one\nline two"), "<p>line one<br>\nline two</p>\n");
    assert.match(html("| a | b |\n|---|---|\n| 1 | 2 |"), /^<table>\n<thead>\n<tr>\n<th>a<\/th>/);
  });

  it("links http(s) and mailto only, each with rel=noopener nofollow", () => {
    assert.equal(
      html("[site](https://example.com/a?b=1&c=2)"),
      `<p>${link("https://example.com/a?b=1&amp;c=2", "site")}</p>\n`,
    );
    assert.equal(html("[write](mailto:team@example.com)"), `<p>${link("mailto:team@example.com", "write")}</p>\n`);
    for (const hostile of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "data:text/html,<b>x</b>",
      "file:///etc/passwd",
      "vbscript:x",
    ]) {
      const out = html(`[x](${hostile})`);
      assert.doesNotMatch(out, /<a /, hostile);
      assert.doesNotMatch(out, /<b>/, hostile);
    }
  });

  it("never lets raw HTML through: it is shown as text", () => {
    assert.equal(html("<script>alert(1)</script>"), "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n");
    assert.equal(html('<img src=x onerror="alert(1)">'), "<p>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</p>\n");
    assert.equal(html("<div>\nblock\n</div>"), "<p>&lt;div&gt;<br>\nblock<br>\n&lt;/div&gt;</p>\n");
  });

  it("makes no picture and no heading: their source stays text", () => {
    assert.doesNotMatch(html("![tracker](https://e.example/pixel.png)"), /<img/);
    assert.equal(html("# Not a heading"), "<p># Not a heading</p>\n");
    assert.doesNotMatch(html("Title\n====="), /<h1>/);
  });

  it("links bare addresses as before: http(s) only, ended by Japanese text and trailing punctuation", () => {
    assert.equal(html("Go to https://e.example."), `<p>Go to ${link("https://e.example")}.</p>\n`);
    assert.equal(html("https://e.example/docを見て"), `<p>${link("https://e.example/doc")}を見て</p>\n`);
    assert.equal(html("example.com and ftp://e.example"), "<p>example.com and ftp://e.example</p>\n");
    assert.equal(
      html("[docs](https://e.example/d)"),
      `<p>${link("https://e.example/d", "docs")}</p>\n`,
      "no link inside a link",
    );
  });

  it("gives the text outside links to the page's own function (mentions), never the link's text", () => {
    const calls: string[] = [];
    const plain = (segment: string) => {
      calls.push(segment);
      return escapeHtml(segment).replace("@Bob", '<a class="mention" href="/m/2">@Bob</a>');
    };
    const out = markdownHtml("Hi @Bob, see [@Bob's page](https://e.example/bob)", plain).value;
    assert.equal(
      out,
      `<p>Hi <a class="mention" href="/m/2">@Bob</a>, see ${link("https://e.example/bob", "@Bob&#39;s page")}</p>\n`,
    );
    assert.ok(!calls.some((segment) => segment.includes("page")), calls.join(" | "));
  });
});
