// Editing one's comment on an item page: its author gets an Edit form (with the text as written,
// Markdown preview included); the page then shows the new text and "edited"; nobody else gets the
// form or may post it.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describeEachBackend("web: editing one's comment", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let topicPath: string;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    const bob = await server.factories.user({ name: "Bob" });
    const group = await server.factories.group([alice, bob], { name: "Team" });
    const topic = await server.factories.topic(group, bob, { title: "Plans" });
    await server.factories.comment(topic, alice, { body: "- first\n- second" });
    topicPath = `/g/1:${group.id}/board/1:${topic.id}`;
    aliceWeb = new WebClient(server.url);
    await aliceWeb.signIn(alice.email);
    bobWeb = new WebClient(server.url);
    await bobWeb.signIn(bob.email);
  });
  after(() => server.close());

  it("offers the author an Edit form holding the text as written; others get none", async () => {
    const page = await aliceWeb.get(topicPath);
    assert.match(page.html, /<form method="post" action="\/g\/1:\d+\/board\/1:\d+\/comments\/1\/edit"/);
    assert.match(page.html, /<textarea id="edit-comment-1" name="text" rows="4"[^>]*>- first\n- second<\/textarea>/);
    assert.match(page.html, /<div class="markdown"><ul>\n<li>first<\/li>/, "shown as Markdown");
    await assertValidHtml(page.html, "a topic whose comment its reader may edit");
    const others = await bobWeb.get(topicPath);
    assert.doesNotMatch(others.html, /comments\/1\/edit/);
  });

  it("saves the new text, shows it with the time of the edit, and refuses anyone else", async () => {
    await aliceWeb.get(topicPath);
    server.clock.advance(120_000);
    const saved = await aliceWeb.post(`${topicPath}/comments/1/edit`, { text: "**changed** plan" });
    assert.equal(saved.status, 303);
    assert.equal(saved.location, `${topicPath}#comment-1`);
    const page = await aliceWeb.get(topicPath);
    assert.match(page.html, /<div class="markdown"><p><strong>changed<\/strong> plan<\/p>/);
    assert.match(page.html, /<span class="edited">edited <time datetime="[^"]+">/);
    await bobWeb.get(topicPath);
    const refused = await bobWeb.post(`${topicPath}/comments/1/edit`, { text: "hijacked" });
    assert.equal(refused.status, 403);
    assert.doesNotMatch((await aliceWeb.get(topicPath)).html, /hijacked/);
  });

  it("refuses an empty text and a forged token, and keeps the comment", async () => {
    await aliceWeb.get(topicPath);
    assert.equal((await aliceWeb.post(`${topicPath}/comments/1/edit`, { text: " " })).status, 400);
    await aliceWeb.get(topicPath);
    assert.equal((await aliceWeb.post(`${topicPath}/comments/1/edit`, { text: "x" }, { csrf: "forged" })).status, 403);
    assert.match((await aliceWeb.get(topicPath)).html, /<strong>changed<\/strong> plan/);
  });
});
