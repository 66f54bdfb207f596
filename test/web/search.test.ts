import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import type { Topic } from "../../src/domain/topic.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

/** The result titles of a search page, in order. */
function resultTitles(html: string): string[] {
  const list = /<ul class="rows search-results">([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? "";
  return [...list.matchAll(/class="row-title" href="[^"]*">([^<]*)</g)].map((m) => m[1] ?? "");
}

describeEachBackend("web: search", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let dev: Group;
  let ops: Group;
  let topic: Topic;
  let web: WebClient;

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    const outsider = await f.user({ name: "Outsider" });
    dev = await f.group([alice], { name: "Dev <Team>" });
    ops = await f.group([alice], { name: "Ops" });
    const secret = await f.group([outsider], { name: "Secret" });
    topic = await f.topic(dev, alice, { title: "議事録 <b>draft</b>", body: "本日の検索テストについて。" });
    server.clock.advance(1000);
    await f.comment(topic, alice, { body: "検索テストの続き" });
    server.clock.advance(1000);
    await f.task(ops, alice, { title: "検索テスト task" });
    await f.topic(secret, outsider, { title: "Secret 検索テスト" });
    for (let i = 1; i <= 23; i++) {
      server.clock.advance(1000);
      await f.topic(ops, alice, { title: `Paging topic ${String(i).padStart(2, "0")}`, body: "pagination" });
    }
    web = new WebClient(server.url);
    await web.signIn(alice.email);
  });
  after(() => server.close());

  it("puts a search box and the OpenSearch link on every page", async () => {
    const home = await web.get("/");
    assert.match(home.html, /<form class="site-search" role="search" method="get" action="\/search">/);
    assert.match(
      home.html,
      /<link rel="search" type="application\/opensearchdescription\+xml" title="Kairan" href="\/opensearch.xml">/,
    );
    const phone = await web.get("/m");
    assert.match(phone.html, /<form class="site-search" role="search" method="get" action="\/m\/search">/);
  });

  it("shows results with escaped titles and highlighted excerpts, newest first, only of the person's groups", async () => {
    const page = await web.get(`/search?q=${encodeURIComponent("検索テスト")}`);
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "search results");
    assert.deepEqual(resultTitles(page.html), [
      "検索テスト task",
      "Comment on 議事録 &lt;b&gt;draft&lt;/b&gt;",
      "議事録 &lt;b&gt;draft&lt;/b&gt;",
    ]);
    assert.match(page.html, /本日の<mark>検索テスト<\/mark>について。/);
    assert.match(page.html, /3 found/);
    assert.ok(!page.html.includes("Secret 検索テスト"));
    // The query stays in the address and in both boxes.
    assert.match(page.html, /<input id="search-q" type="search" name="q" value="検索テスト"/);
    assert.match(
      page.html,
      /<link rel="alternate" type="application\/atom\+xml" title="検索テスト" href="[^"]*\/api\/search\/V2\?q=/,
    );
    const links = [...page.html.matchAll(/class="row-title" href="([^"]*)"/g)].map((m) => m[1]);
    assert.ok(links.includes(`/g/1:${dev.id}/board/1:${topic.id}#comment-1`));
  });

  it("filters by group and kind, and keeps the filters in the form", async () => {
    const q = encodeURIComponent("検索テスト");
    const inOps = await web.get(`/search?q=${q}&group=1:${ops.id}`);
    assert.deepEqual(resultTitles(inOps.html), ["検索テスト task"]);
    assert.match(inOps.html, new RegExp(`<option value="1:${ops.id}" selected>Ops</option>`));
    const comments = await web.get(`/search?q=${q}&kind=COMMENT`);
    assert.deepEqual(resultTitles(comments.html), ["Comment on 議事録 &lt;b&gt;draft&lt;/b&gt;"]);
    assert.match(comments.html, /<option value="COMMENT" selected>Comment<\/option>/);
  });

  it("pages through results with the query in every link", async () => {
    const first = await web.get("/search?q=pagination");
    assert.equal(resultTitles(first.html).length, 20);
    assert.match(first.html, /23 found/);
    const older = /<a rel="next" href="([^"]*)">/.exec(first.html)?.[1]?.replace(/&amp;/g, "&");
    assert.equal(older, "/search?q=pagination&page=2");
    const second = await web.get(older);
    assert.deepEqual(resultTitles(second.html), ["Paging topic 03", "Paging topic 02", "Paging topic 01"]);
  });

  it("says when a short word was looked for by a scan", async () => {
    const page = await web.get(`/search?q=${encodeURIComponent("議事")}`);
    assert.match(page.html, /among the 2000 newest items of each kind only/);
    assert.equal(resultTitles(page.html).length, 1);
  });

  it("shows the empty form without a query, and a clear message for a bad one", async () => {
    const empty = await web.get("/search");
    assert.equal(empty.status, 200);
    assert.ok(!empty.html.includes("found"));
    const long = await web.get(`/search?q=${"x".repeat(201)}`);
    assert.equal(long.status, 400);
    assert.match(long.html, /The search is longer than 200 characters/);
    const onlyExcluded = await web.get("/search?q=-draft");
    assert.equal(onlyExcluded.status, 400);
    assert.match(onlyExcluded.html, /Give at least one word/);
    const badKind = await web.get("/search?q=draft&kind=NOPE");
    assert.match(badKind.html, /That group or kind cannot be searched/);
    const notMine = await web.get(`/search?q=draft&group=1:999999`);
    assert.equal(notMine.status, 404);
  });

  it("speaks Japanese to a Japanese browser", async () => {
    const ja = new WebClient(server.url, "ja");
    await ja.signIn(alice.email);
    const page = await ja.get(`/search?q=${encodeURIComponent("検索テスト")}`);
    assert.match(page.html, /3 件/);
    assert.match(page.html, /議事録 &lt;b&gt;draft&lt;\/b&gt; へのコメント/);
    assert.match(page.html, /<option value="TASK">ToDo<\/option>/);
  });

  it("serves the OpenSearch description without a session", async () => {
    const answer = await fetch(`${server.url}/opensearch.xml`);
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get("content-type") ?? "", /^application\/opensearchdescription\+xml/);
    const body = await answer.text();
    assert.ok(body.includes(`template="${server.url}/search?q={searchTerms}"`));
    assert.ok(body.includes(`template="${server.url}/api/search/V2?q={searchTerms}"`));
  });

  it("sends a signed-out visitor to sign in", async () => {
    const answer = await new WebClient(server.url).get("/search?q=draft");
    assert.equal(answer.status, 303);
  });
});
