import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import type { Topic } from "../../src/domain/topic.js";
import { SEARCH_LIMITS } from "../../src/domain/limits.js";
import { assertValidAtom } from "../support/atom-schema.js";
import type { TestUser } from "../support/factories.js";
import { describeEachBackend } from "../support/backends.js";
import { addTestFile, addTestVersion } from "../support/files.js";
import { assertError, atomText, entriesOf, nsChild, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("GET /api/search/V2", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let dev: Group;
  let ops: Group;
  let secret: Group;
  let topic: Topic;
  const search = (query: string, token = alice.token) => request(`${server.url}/api/search/V2?${query}`, { token });
  const ids = async (query: string, token?: string) =>
    entriesOf((await search(query, token)).xml).map((entry) => atomText(entry, "id") ?? "");
  const f = () => server.factories;
  const totalOf = async (query: string, token?: string) =>
    nsChild((await search(query, token)).xml, "cbl", "totalCount")?.text;

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    reader = await f.user({ name: "Reader", level: "read" });
    outsider = await f.user({ name: "Outsider" });
    dev = await f.group([alice, bob, reader], { name: "Dev" });
    ops = await f.group([alice], { name: "Ops" });
    secret = await f.group([outsider], { name: "Secret" });
    topic = await f.topic(dev, alice, { title: "Release plan", body: "日本語の検索テストです。 Deploy on Friday." });
    server.clock.advance(1000);
    await f.comment(topic, bob, { body: "The deploy window moves: 検索テスト again" });
    server.clock.advance(1000);
    await f.task(dev, bob, { title: "Write the release notes", body: "検索 of tasks" });
    server.clock.advance(1000);
    await f.topic(ops, alice, { title: "Ops rota", body: "Friday deploy freeze" });
    server.clock.advance(1000);
    await f.topic(dev, alice, { title: "Old deploy", body: "in the trash", trashed: true });
    await f.topic(secret, outsider, { title: "Secret deploy plan", body: "検索テスト of another group" });
    server.clock.advance(1000);
    await addTestFile(server, dev, alice, {
      fileName: "minutes.txt",
      title: "Meeting minutes",
      memo: "weekly",
      bytes: Buffer.from("議事録: 検索機能の設計について"),
    });
  });
  after(() => server.close());

  it("finds a Japanese substring of three characters in topics and comments, newest first, with excerpts", async () => {
    const answer = await search("q=" + encodeURIComponent("検索テ"));
    assert.equal(answer.status, 200);
    await assertValidAtom(answer.text);
    const entries = entriesOf(answer.xml);
    assert.deepEqual(
      entries.map((entry) => atomText(entry, "id")),
      [`GROUP,1:${dev.id},BOARD,1:${topic.id},COMMENT,1`, `GROUP,1:${dev.id},BOARD,1:${topic.id}`],
    );
    assert.equal(nsChild(answer.xml, "cbl", "totalCount")?.text, "2");
    assert.equal(nsChild(answer.xml, "cbl", "searchMode"), undefined);
    assert.equal(
      nsChild(entries[1]!, "cbl", "excerpt")?.text,
      "Release plan 日本語の検索テストです。 Deploy on Friday.",
    );
    // Shaped as in the board's own feed: the group, then the excerpt last.
    assert.equal(nsChild(entries[1]!, "cbl", "group")?.attributes.get("valueString"), "Dev");
    assert.equal(entries[1]!.children.at(-1)?.local, "excerpt");
  });

  it("finds English words in any letter case, every term required, phrases and exclusions", async () => {
    const topicId = `GROUP,1:${dev.id},BOARD,1:${topic.id}`;
    const opsTopics = await ids("q=DEPLOY+friday");
    assert.equal(opsTopics.length, 2);
    assert.ok(opsTopics.includes(topicId));
    assert.deepEqual(await ids(`q=${encodeURIComponent('"deploy on friday"')}`), [topicId]);
    assert.deepEqual(await ids("q=deploy+friday+-freeze"), [topicId]);
    assert.deepEqual(await ids(`q=deploy+${encodeURIComponent('-"on friday"')}&category=BOARD`), [
      ...(await ids("q=freeze")),
    ]);
  });

  it("finds tasks and shared files by title, memo, file name and the text of a plain-text file", async () => {
    assert.equal((await ids("q=release+notes"))[0]?.includes(",TASK,"), true);
    const fileHits = await ids("q=" + encodeURIComponent("検索機能"));
    assert.equal(fileHits.length, 1);
    assert.match(fileHits[0]!, /,CABINET,1:\d+$/);
    assert.deepEqual(await ids("q=minutes.txt"), fileHits);
    assert.deepEqual(await ids("q=weekly"), fileHits);
    const answer = await search("q=" + encodeURIComponent("検索機能"));
    const entry = entriesOf(answer.xml)[0]!;
    assert.equal(nsChild(entry, "cblCbnt", "fileName")?.text, "minutes.txt");
    assert.match(nsChild(entry, "cbl", "excerpt")?.text ?? "", /議事録: 検索機能の設計について/);
  });

  it("follows a new version of a file: its name and text replace the old ones", async () => {
    const file = await addTestFile(server, ops, alice, { fileName: "draft.txt", bytes: Buffer.from("first draft") });
    assert.equal((await ids("q=first+draft")).length, 1);
    await addTestVersion(server, file, alice, Buffer.from("final wording"));
    assert.deepEqual(await ids("q=first+draft"), []);
    assert.equal((await ids("q=final+wording")).length, 1);
  });

  it("never shows or counts an item of another group, and leaves out the trash", async () => {
    assert.equal(await totalOf("q=deploy"), "3");
    assert.ok(!(await search("q=deploy")).text.includes("Secret"));
    assert.deepEqual(await ids("q=trash"), []);
    assert.equal(await totalOf("q=secret+deploy"), "0");
    // The outsider finds only their own group's topic.
    assert.equal(await totalOf("q=deploy", outsider.token), "1");
    assertError(await search(`q=deploy&group=1:${secret.id}`), 403, "GROUP_NOT_JOINED");
  });

  it("leaves out the comments of an item in the trash, as the item's own comment feed does", async () => {
    const later = await f().topic(ops, alice, { title: "Soon binned" });
    await f().comment(later, alice, { body: "a walrusgnu remark" });
    assert.equal(await totalOf("q=walrusgnu"), "1");
    await server.store.transaction((tx) => tx.topics.place(later.id, { trashed: true, at: server.clock.now() }));
    assert.equal(await totalOf("q=walrusgnu"), "0");
    await server.store.transaction((tx) => tx.topics.place(later.id, { trashed: false, at: server.clock.now() }));
    assert.equal(await totalOf("q=walrusgnu"), "1");
  });

  it("counts each kind's newest hits up to its bound, and says when the count is a lower bound", async () => {
    const bound = SEARCH_LIMITS.countedHitsPerKind;
    const many = await f().topic(ops, alice, { title: "Many comments" });
    for (let n = 0; n < bound - 1; n++) await f().comment(many, alice, { body: `okapifern ${n}` });
    let answer = await search("q=okapifern&category=COMMENT&max-results=1");
    assert.equal(nsChild(answer.xml, "cbl", "totalCount")?.text, String(bound - 1));
    assert.equal(nsChild(answer.xml, "cbl", "totalCountBounded"), undefined);
    await f().comment(many, alice, { body: "okapifern last" });
    await f().comment(many, alice, { body: "okapifern past the bound" });
    answer = await search("q=okapifern&category=COMMENT&max-results=1");
    assert.equal(nsChild(answer.xml, "cbl", "totalCount")?.text, String(bound));
    assert.equal(nsChild(answer.xml, "cbl", "totalCountBounded")?.text, "true");
    // The newest are the ones counted; paging ends at the bound, still with the count.
    assert.match(nsChild(entriesOf(answer.xml)[0]!, "cbl", "excerpt")?.text ?? "", /past the bound/);
    answer = await search(`q=okapifern&category=COMMENT&start-index=${bound}`);
    assert.equal(entriesOf(answer.xml).length, 0);
    assert.equal(nsChild(answer.xml, "cbl", "totalCount")?.text, String(bound));
  });

  it("filters by group and category", async () => {
    assert.equal(await totalOf(`q=deploy&group=1:${ops.id}`), "1");
    assert.equal(await totalOf(`q=deploy&group=GROUP,1:${dev.id}`), "2");
    assert.deepEqual(await ids("q=deploy&category=comment"), [`GROUP,1:${dev.id},BOARD,1:${topic.id},COMMENT,1`]);
    assert.equal(await totalOf("q=deploy&category=TASK"), "0");
    assertError(await search("q=deploy&category=MEMBER_LIST"), 400, "INVALID_CATEGORY");
    assertError(await search("q=deploy&group=abc"), 400, "INVALID_GROUP");
  });

  it("leaves comments out for the read level and refuses to search them for it", async () => {
    assert.equal(await totalOf("q=deploy", reader.token), "1");
    assertError(await search("q=deploy&category=COMMENT", reader.token), 403, "ACCESS_LEVEL_INSUFFICIENT");
  });

  it("pages like every feed, the total counting every page", async () => {
    assert.equal((await ids("q=deploy&max-results=1")).length, 1);
    const all = await ids("q=deploy");
    assert.deepEqual(await ids("q=deploy&start-index=1&max-results=1"), [all[1]]);
    assert.equal(await totalOf("q=deploy&start-index=1&max-results=1"), "3");
    assert.deepEqual(await ids("q=deploy&start-index=3"), []);
    assertError(await search("q=deploy&start-index=-1"), 400, "INVALID_START_INDEX");
    assertError(await search("q=deploy&max-results=0"), 400, "INVALID_MAX_RESULTS");
  });

  it("scans for one or two characters and says so", async () => {
    const answer = await search("q=" + encodeURIComponent("検索"));
    assert.equal(nsChild(answer.xml, "cbl", "searchMode")?.text, "scan");
    assert.equal(entriesOf(answer.xml).length, 4);
    assert.equal(nsChild((await search("q=ab")).xml, "cbl", "searchMode")?.text, "scan");
  });

  it("refuses a missing, empty or too long query", async () => {
    assertError(await search(""), 400, "PARAMETER_REQUIRED");
    assertError(await search("q=+"), 400, "SEARCH_QUERY_EMPTY");
    assertError(await search("q=-deploy"), 400, "SEARCH_QUERY_EMPTY");
    const longest = "あ".repeat(SEARCH_LIMITS.queryMaxChars);
    assert.equal((await search(`q=${encodeURIComponent(longest)}`)).status, 200);
    assertError(await search(`q=${encodeURIComponent(longest + "あ")}`), 400, "SEARCH_QUERY_TOO_LONG");
  });

  it("treats LIKE wildcards and FTS syntax in the query as plain text", async () => {
    assert.deepEqual(await ids("q=" + encodeURIComponent("%%%")), []);
    assert.deepEqual(await ids("q=" + encodeURIComponent("___")), []);
    assert.deepEqual(await ids("q=" + encodeURIComponent('dep*" OR "x')), []);
    assert.equal((await search("q=" + encodeURIComponent("NEAR(deploy friday)"))).status, 200);
  });

  it("needs credentials", async () => {
    assertError(await request(`${server.url}/api/search/V2?q=deploy`), 401, "AUTHENTICATION_REQUIRED");
  });
});
