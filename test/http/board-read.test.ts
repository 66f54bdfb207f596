import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { attribute } from "../../src/atom/parse.js";
import type { Group } from "../../src/domain/group.js";
import { assertValidAtom } from "../support/atom-schema.js";
import { type TestUser } from "../support/factories.js";
import { assertError, atomText, entriesOf, nsChild, request } from "../support/http.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("GET /api/board/V2", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let outsider: TestUser;
  let group: Group;
  let folderId: number;
  let board: (query: string, token?: string) => ReturnType<typeof request>;

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice Aoki" });
    bob = await f.user({ name: "Bob & <Baba>" });
    outsider = await f.user();
    group = await f.group([alice, bob], { name: 'Dev "team"' });
    await f.group([outsider]);
    folderId = await f.boardFolder(group, "News");
    await f.topic(group, alice, { title: "first", body: "line1\nline2 & <b>" });
    server.clock.advance(1000);
    await f.topic(group, bob, { title: "in folder", folderId, allowEdit: true, fastNotify: true });
    server.clock.advance(1000);
    await f.topic(group, alice, { title: "trashed", trashed: true });
    board = (query, token = alice.token) => request(`${server.url}/api/board/V2?${query}`, { token });
  });
  after(() => server.close());

  it("lists the group's topics newest first, with every documented field", async () => {
    const answer = await board(`group=1:${group.id}`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get("content-type"), "application/atom+xml; charset=utf-8");
    assert.ok(answer.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>'));
    await assertValidAtom(answer.text);
    const feed = answer.xml;
    assert.equal(atomText(feed, "id"), `GROUP,1:${group.id}`);
    assert.equal(atomText(feed, "title"), 'Dev "team"');
    const author = nsChild(feed, "atom", "author");
    assert.ok(author);
    assert.equal(atomText(author, "name"), "Alice Aoki", "the feed author is the caller");
    assert.equal(atomText(author, "uri"), `1:${alice.id}`);
    const entries = entriesOf(feed);
    assert.deepEqual(
      entries.map((e) => atomText(e, "title")),
      ["in folder", "first"],
      "trash is left out",
    );
    const [folderTopic, first] = entries as [NonNullable<(typeof entries)[0]>, NonNullable<(typeof entries)[0]>];
    assert.match(atomText(folderTopic, "id") ?? "", new RegExp(`^GROUP,1:${group.id},BOARD,1:\\d+$`));
    assert.equal(attribute(nsChild(folderTopic, "cbl", "group")!, "id"), `1:${group.id}`);
    assert.equal(attribute(nsChild(folderTopic, "cbl", "group")!, "valueString"), 'Dev "team"');
    assert.ok(nsChild(folderTopic, "cblBrd", "allowEdit"));
    assert.ok(nsChild(folderTopic, "cblBrd", "fastNotify"));
    assert.equal(attribute(nsChild(folderTopic, "cblBrd", "folder")!, "id"), `1:${folderId}`);
    assert.equal(attribute(nsChild(folderTopic, "cblBrd", "folder")!, "valueString"), "News");
    assert.equal(nsChild(first, "cblBrd", "allowEdit"), undefined);
    assert.equal(atomText(first, "summary"), "line1\nline2 & <b>");
    assert.match(atomText(first, "updated") ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.match(nsChild(first, "cbl", "published")?.text ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const topicAuthor = nsChild(first, "atom", "author")!;
    assert.equal(atomText(topicAuthor, "uri"), `1:${alice.id}`);
  });

  it("writes the literal prefixes and element order that non-namespace-aware clients match", async () => {
    const { text } = await board(`group=1:${group.id}`);
    assert.match(
      text,
      /<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom" xmlns:cbl="http:\/\/schemas\.cybozulive\.com\/common\/2010"/,
    );
    assert.match(text, /<cbl:group valueString="Dev &quot;team&quot;" id="1:\d+"\/>/);
    assert.match(text, /<cblBrd:folder valueString="News" id="1:\d+"\/>/);
    assert.match(text, /<cblBrd:allowEdit\/>/);
    const entry = text.slice(text.indexOf("<entry>"), text.indexOf("</entry>"));
    const order = [
      "<id>",
      "<title",
      'rel="alternate"',
      'rel="mobile"',
      '<category term="GROUP"',
      '<category term="BOARD"',
      "<author>",
      "<updated>",
      "<summary",
      "<cbl:group",
    ];
    const positions = order.map((needle) => entry.indexOf(needle));
    assert.ok(
      positions.every((p) => p >= 0),
      `all present: ${JSON.stringify(positions)}`,
    );
    assert.deepEqual(
      [...positions].sort((a, b) => a - b),
      positions,
      "in the documented order",
    );
  });

  it("filters by folder, UNCLASSIFIED and TRASH", async () => {
    const titles = async (folder: string) =>
      entriesOf((await board(`group=1:${group.id}&board-folder=${folder}`)).xml).map((e) => atomText(e, "title"));
    assert.deepEqual(await titles(`1:${folderId}`), ["in folder"]);
    assert.deepEqual(await titles(`1%3A${folderId}`), ["in folder"]);
    assert.deepEqual(await titles("UNCLASSIFIED"), ["first"]);
    assert.deepEqual(await titles("TRASH"), ["trashed"]);
    assertError(await board(`group=1:${group.id}&board-folder=1:99999`), 404, "FOLDER_NOT_FOUND");
    assertError(await board(`group=1:${group.id}&board-folder=nope`), 400, "INVALID_FOLDER");
  });

  it("accepts the group as 1:n, 1%3An and GROUP,1:n", async () => {
    for (const form of [`1:${group.id}`, `1%3A${group.id}`, `GROUP,1:${group.id}`, `GROUP%2C1%3A${group.id}`]) {
      const answer = await board(`group=${form}`);
      assert.equal(answer.status, 200, form);
      assert.equal(entriesOf(answer.xml).length, 2);
    }
  });

  it("returns one topic by entry=, raw or percent-encoded", async () => {
    const list = entriesOf((await board(`group=1:${group.id}`)).xml);
    const id = atomText(list[1]!, "id")!;
    for (const form of [id, encodeURIComponent(id)]) {
      const one = await board(`entry=${form}`);
      assert.equal(one.status, 200);
      await assertValidAtom(one.text);
      assert.deepEqual(
        entriesOf(one.xml).map((e) => atomText(e, "id")),
        [id],
      );
    }
    assertError(await board(`entry=GROUP,1:${group.id},BOARD,1:99999`), 404, "TOPIC_NOT_FOUND");
    assertError(await board(`entry=GROUP,1:${group.id},TASK,1:1`), 404, "TOPIC_NOT_FOUND");
    assertError(await board("entry=nonsense"), 400, "INVALID_ID");
    assertError(await board(`entry=${id}`, outsider.token), 403, "GROUP_NOT_JOINED");
  });

  it("pages with start-index and max-results, clamping above 100", async () => {
    const big = await server.factories.group([alice]);
    await server.store.transaction(async (tx) => {
      for (let i = 0; i < 105; i++) {
        await tx.topics.insert({
          groupId: big.id,
          title: `t${i}`,
          body: "",
          authorId: alice.id,
          folderId: null,
          allowEdit: false,
          fastNotify: false,
          trashed: false,
          at: server.clock.now() + i * 1000,
        });
      }
    });
    const titles = async (query: string) =>
      entriesOf((await board(`group=1:${big.id}&${query}`)).xml).map((e) => atomText(e, "title"));
    assert.equal((await titles("")).length, 20, "default 20");
    assert.deepEqual(await titles("max-results=3"), ["t104", "t103", "t102"]);
    assert.deepEqual(await titles("start-index=3&max-results=2"), ["t101", "t100"]);
    assert.deepEqual(
      await titles("start-index=0&max-results=2&start-index=2"),
      ["t102", "t101"],
      "a repeated parameter: the last counts",
    );
    assert.equal((await titles("max-results=100")).length, 100);
    assert.equal((await titles("max-results=101")).length, 100, "clamped to 100");
    assert.deepEqual(await titles("start-index=104"), ["t0"]);
    assert.deepEqual(await titles("start-index=105"), []);
    assertError(await board(`group=1:${big.id}&max-results=0`), 400, "INVALID_MAX_RESULTS");
    assertError(await board(`group=1:${big.id}&max-results=-1`), 400, "INVALID_MAX_RESULTS");
    assertError(await board(`group=1:${big.id}&max-results=ten`), 400, "INVALID_MAX_RESULTS");
    assertError(await board(`group=1:${big.id}&start-index=-1`), 400, "INVALID_START_INDEX");
    assertError(await board(`group=1:${big.id}&start-index=x`), 400, "INVALID_START_INDEX");
  });

  it("refuses non-members (403), unknown groups (404), missing and bad parameters (400), no credentials (401)", async () => {
    const refused = await board(`group=1:${group.id}`, outsider.token);
    assertError(refused, 403, "GROUP_NOT_JOINED");
    assert.ok(!refused.text.includes("Dev"), "nothing of the group leaks");
    assertError(await board("group=1:99999"), 404, "GROUP_NOT_FOUND");
    assertError(await board(""), 400, "PARAMETER_REQUIRED");
    assertError(await board("group=abc"), 400, "INVALID_GROUP");
    assert.equal((await board("group=abc")).xml.text, 'group must be a group id such as 1:12 (got "abc").');
    for (const id of ["9:9", "GROUP,9:9", "1:0", "2:12", "1:12345678901234567890"]) {
      const unknown = await board(`group=${id}`);
      assertError(unknown, 404, "GROUP_NOT_FOUND");
      assert.equal(unknown.xml.text, `There is no group ${id}.`, "a well-formed id of no group says so");
    }
    assert.equal((await board("group=1:99999")).xml.text, "There is no group 1:99999.");
    const anonymous = await request(`${server.url}/api/board/V2?group=1:${group.id}`);
    assertError(anonymous, 401, "AUTHENTICATION_REQUIRED");
    assert.match(anonymous.headers.get("www-authenticate") ?? "", /^OAuth realm="/);
    assertError(await board(`group=1:${group.id}`, "revoked-or-unknown"), 401, "TOKEN_REJECTED");
  });

  it("embeds every comment with summary and content when embed-comment=true, for the comments level", async () => {
    const topic = await server.factories.topic(group, alice, { title: "with comments" });
    const ref = { kind: "BOARD" as const, groupId: group.id, id: topic.id };
    await server.store.transaction(async (tx) => {
      for (const [i, body] of ["one", "two & <three>"].entries()) {
        await tx.comments.insert({
          parent: ref,
          number: await tx.comments.nextNumber(ref),
          authorId: bob.id,
          body,
          replyTo: i === 1 ? 1 : null,
          at: server.clock.now(),
        });
      }
    });
    const answer = await board(`entry=GROUP,1:${group.id},BOARD,1:${topic.id}&embed-comment=True`);
    assert.equal(answer.status, 200);
    await assertValidAtom(answer.text);
    const entry = entriesOf(answer.xml)[0]!;
    const subFeed = nsChild(nsChild(nsChild(entry, "cbl", "comments")!, "cbl", "feedLink")!, "atom", "feed")!;
    const comments = entriesOf(subFeed);
    assert.equal(comments.length, 2);
    const newest = comments[0]!;
    assert.equal(newest.attributes.get("{http://schemas.cybozulive.com/common/2010}sequence"), "2");
    assert.equal(atomText(newest, "id"), `GROUP,1:${group.id},BOARD,1:${topic.id},COMMENT,2`);
    assert.equal(atomText(newest, "title"), "");
    assert.equal(atomText(newest, "summary"), "two & <three>");
    assert.equal(atomText(newest, "content"), "two & <three>");
    assert.equal(nsChild(newest, "cblCmnt", "replyTo")?.text, "1");
    assert.equal(atomText(nsChild(newest, "atom", "author")!, "name"), "Bob & <Baba>");
    assert.equal(nsChild(comments[1]!, "cblCmnt", "replyTo"), undefined);
    assert.match(answer.text, /<entry cbl:sequence="2">/);

    const plain = entriesOf((await board(`entry=GROUP,1:${group.id},BOARD,1:${topic.id}`)).xml)[0]!;
    assert.equal(nsChild(plain, "cbl", "comments"), undefined, "no comments unless asked");

    const reader = await server.factories.user({ level: "read" });
    const readGroup = await server.factories.group([reader]);
    assert.equal((await board(`group=1:${readGroup.id}`, reader.token)).status, 200, "read level reads the board");
    assertError(
      await board(`group=1:${readGroup.id}&embed-comment=true`, reader.token),
      403,
      "ACCESS_LEVEL_INSUFFICIENT",
    );
  });

  it("answers 405 with Allow for other methods, and 404 for unknown paths", async () => {
    const answer = await request(`${server.url}/api/board/V2`, { method: "PUT", token: alice.token });
    assertError(answer, 405, "METHOD_NOT_ALLOWED");
    assert.equal(answer.headers.get("allow"), "GET, POST");
    assertError(await request(`${server.url}/api/nothing/V2`, { token: alice.token }), 404, "NOT_FOUND");
  });
});
