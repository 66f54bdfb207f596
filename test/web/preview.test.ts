// `POST /preview` shows a text as its page will (the Markdown subset of src/web/markdown.ts) to a
// signed-in person's form, with the same CSRF check as every form; it stores nothing.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { LIMITS } from "../../src/domain/limits.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describeEachBackend("web: the text preview", (backend) => {
  let server: TestServer;
  let web: WebClient;
  let groupPath: string;

  before(async () => {
    server = await startTestServer(backend);
    const alice = await server.factories.user({ name: "Alice" });
    groupPath = `/g/1:${(await server.factories.group([alice], { name: "Team" })).id}`;
    web = new WebClient(server.url);
    await web.signIn(alice.email);
  });
  after(() => server.close());

  it("renders Markdown as the page will, raw HTML as text, and stores nothing", async () => {
    const form = await web.get(`${groupPath}/board/new`);
    assert.match(
      form.html,
      /<textarea id="topic-body"[^>]* data-preview="\/preview"/,
      "the body field offers a preview",
    );
    await assertValidHtml(form.html, "the topic form with its preview field");
    const answer = await web.post("/preview", {
      text: "- one\n- [two](https://e.example)\n\n<script>alert(1)</script>",
    });
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get("content-type") ?? "", /^text\/html/);
    assert.equal(answer.headers.get("cache-control"), "private, no-store");
    assert.equal(
      answer.html,
      '<ul>\n<li>one</li>\n<li><a href="https://e.example" rel="noopener nofollow">two</a></li>\n</ul>\n<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n',
    );
    const groupId = Number(groupPath.split(":")[1]);
    const topics = await server.store.read((tx) => tx.topics.list(groupId, { kind: "all" }, { offset: 0, limit: 10 }));
    assert.equal(topics.length, 0, "a preview writes nothing");
  });

  it(`takes ${LIMITS.previewMaxChars} characters and refuses one more`, async () => {
    await web.get(`${groupPath}/board/new`);
    const csrf = web.csrf();
    assert.equal((await web.post("/preview", { text: "字".repeat(LIMITS.previewMaxChars) }, { csrf })).status, 200);
    const refused = await web.post("/preview", { text: "字".repeat(LIMITS.previewMaxChars + 1) }, { csrf });
    assert.equal(refused.status, 400);
    assert.match(refused.html, /The text to preview is longer than 20000 characters\./);
  });

  it("needs the form's token and a signed-in person", async () => {
    await web.get(`${groupPath}/board/new`);
    assert.equal((await web.post("/preview", { text: "x" }, { csrf: null })).status, 403);
    assert.equal((await web.post("/preview", { text: "x" }, { csrf: "forged" })).status, 403);
    const stranger = new WebClient(server.url);
    const answer = await stranger.post("/preview", { text: "x" }, { csrf: null });
    assert.ok([303, 401, 403].includes(answer.status), `signed out: ${answer.status}`);
    assert.doesNotMatch(answer.html, /<p>x<\/p>/);
  });
});
