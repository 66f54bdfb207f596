import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import type { Topic } from "../../src/domain/topic.js";
import { assertValidAtom } from "../support/atom-schema.js";
import type { TestUser } from "../support/factories.js";
import { CLIENT_NS, assertError, atomText, entriesOf, nsChild, request } from "../support/http.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("POST /api/board/V2", (backend) => {
  let server: TestServer;
  let alice: TestUser; // manager
  let bob: TestUser;
  let carol: TestUser;
  let outsider: TestUser;
  let group: Group;
  let other: Group;
  const post = (body: string, token: string, query = "", contentType?: string) =>
    request(`${server.url}/api/board/V2${query}`, { body, token, ...(contentType ? { contentType } : {}) });
  const topicId = (topic: Topic) => `GROUP,1:${topic.groupId},BOARD,1:${topic.id}`;
  const create = (title: string, summary = "B", groupId = group.id) =>
    `<feed ${CLIENT_NS}><cbl:operation type="insert"/><entry><cbl:group id="1:${groupId}"/><title>${title}</title><summary type="text">${summary}</summary></entry></feed>`;
  const update = (topic: Topic, title: string, summary?: string) =>
    `<feed ${CLIENT_NS}><cbl:operation type="UPDATE"/><entry><id>${topicId(topic)}</id><title>${title}</title>${summary === undefined ? "" : `<summary type="text">${summary}</summary>`}</entry></feed>`;
  const op = (type: string, topic: Topic) =>
    `<feed ${CLIENT_NS}><cbl:operation type="${type}"/><entry><id>${topicId(topic)}</id></entry></feed>`;
  const read = (topic: Topic) => server.store.read((tx) => tx.topics.findById(topic.id));
  const countTopics = () =>
    server.store.read(
      async (tx) => (await tx.topics.list(group.id, { kind: "all" }, { offset: 0, limit: 100 })).length,
    );

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    carol = await f.user({ name: "Carol" });
    outsider = await f.user();
    group = await f.group([alice, bob, carol], { managers: [alice] });
    other = await f.group([outsider]);
  });
  after(() => server.close());

  describe("create", () => {
    it("accepts every shape real clients send and answers 200 with the new entry", async () => {
      const shapes = [
        create("lower"),
        `<feed ${CLIENT_NS}><cbl:operation type="INSERT"/><entry><title>upper</title><summary type="text">B</summary><cbl:group id="1:${group.id}"/></entry></feed>`,
        `<feed ${CLIENT_NS}><entry><cbl:group id="1:${group.id}"/><title>no operation</title><summary type="text">B</summary></entry></feed>`,
        `<a:feed xmlns:a="http://www.w3.org/2005/Atom" xmlns:c="http://schemas.cybozulive.com/common/2010"><a:entry><c:group id="1:${group.id}"/><a:title>other prefixes</a:title></a:entry><c:operation type="insert"/></a:feed>`,
      ];
      for (const [i, body] of shapes.entries()) {
        const query = i === 1 ? `?group=1:${group.id}` : "";
        const answer = await post(body, bob.token, query, i === 2 ? "application/atom+xml" : undefined);
        assert.equal(answer.status, 200, answer.text);
        await assertValidAtom(answer.text);
        const entry = entriesOf(answer.xml)[0]!;
        assert.match(atomText(entry, "id") ?? "", new RegExp(`^GROUP,1:${group.id},BOARD,1:\\d+$`));
        assert.ok(nsChild(entry, "cbl", "group"));
        assert.ok(atomText(entry, "updated"));
        assert.equal(atomText(nsChild(entry, "atom", "author")!, "name"), "Bob");
      }
      const titles = (
        await server.store.read((tx) => tx.topics.list(group.id, { kind: "all" }, { offset: 0, limit: 10 }))
      ).map((t) => t.title);
      assert.deepEqual(titles.slice(0, 4).sort(), ["lower", "no operation", "other prefixes", "upper"]);
    });

    it("enforces the title and body limits in characters, not bytes", async () => {
      for (const char of ["a", "あ", "😀"]) {
        const ok = await post(create(char.repeat(200)), bob.token);
        assert.equal(ok.status, 200, `200 × ${char}`);
        assert.equal(atomText(entriesOf(ok.xml)[0]!, "title"), char.repeat(200));
        const before = await countTopics();
        assertError(await post(create(char.repeat(201)), bob.token), 400, "TOPIC_TITLE_TOO_LONG");
        assert.equal(await countTopics(), before, "nothing written");
      }
      assert.equal((await post(create("body ok", "字".repeat(20000)), bob.token)).status, 200);
      const before = await countTopics();
      assertError(await post(create("body long", "字".repeat(20001)), bob.token), 400, "TOPIC_BODY_TOO_LONG");
      assertError(await post(create(""), bob.token), 400, "TOPIC_TITLE_REQUIRED");
      assertError(
        await post(`<feed ${CLIENT_NS}><entry><cbl:group id="1:${group.id}"/></entry></feed>`, bob.token),
        400,
        "TOPIC_TITLE_REQUIRED",
      );
      assert.equal(await countTopics(), before);
    });

    it("refuses other groups, wrong groups, low access levels and missing credentials", async () => {
      const before = await countTopics();
      assertError(await post(create("x", "B", other.id), bob.token), 403, "GROUP_NOT_JOINED");
      assertError(await post(create("x", "B", 99999), bob.token), 404, "GROUP_NOT_FOUND");
      const foreign = await post(create("x").replace(`id="1:${group.id}"`, 'id="9:9"'), bob.token);
      assertError(foreign, 404, "GROUP_NOT_FOUND");
      assert.equal(foreign.xml.text, "There is no group 9:9.");
      const malformed = await post(create("x").replace(`id="1:${group.id}"`, 'id="nine"'), bob.token);
      assertError(malformed, 400, "INVALID_GROUP");
      assert.equal(malformed.xml.text, 'cbl:group id must be a group id such as 1:12 (got "nine").');
      assertError(await post(create("x"), bob.token, `?group=1:${other.id}`), 403, "WRONG_GROUP");
      assertError(
        await post(`<feed ${CLIENT_NS}><entry><title>x</title></entry></feed>`, bob.token),
        400,
        "GROUP_REQUIRED",
      );
      for (const level of ["read", "comments"] as const) {
        const weak = await server.factories.user({ level });
        const weakGroup = await server.factories.group([weak]);
        assertError(await post(create("x", "B", weakGroup.id), weak.token), 403, "ACCESS_LEVEL_INSUFFICIENT");
      }
      assertError(await request(`${server.url}/api/board/V2`, { body: create("x") }), 401, "AUTHENTICATION_REQUIRED");
      assert.equal(await countTopics(), before);
    });
  });

  describe("update, delete and the edit lease", () => {
    let topic: Topic;
    beforeEach(async () => {
      topic = await server.factories.topic(group, bob, { title: "original", body: "body" });
      server.clock.advance(1000);
    });

    it("overwrites title and body; an omitted summary empties the body", async () => {
      const answer = await post(update(topic, "T2", "B2"), bob.token);
      assert.equal(answer.status, 200, answer.text);
      await assertValidAtom(answer.text);
      const entry = entriesOf(answer.xml)[0]!;
      assert.equal(atomText(entry, "title"), "T2");
      assert.equal(atomText(entry, "summary"), "B2");
      assert.equal(atomText(entry, "id"), topicId(topic));
      assert.equal((await read(topic))?.body, "B2");
      assert.ok((await read(topic))!.updatedAt > topic.updatedAt);
      assert.equal((await post(update(topic, "T3"), bob.token)).status, 200);
      assert.deepEqual([(await read(topic))?.title, (await read(topic))?.body], ["T3", ""]);
    });

    it("lets the author, managers, and everyone under shared editing update; others get 403", async () => {
      assertError(await post(update(topic, "by carol"), carol.token), 403, "TOPIC_UPDATE_FORBIDDEN");
      assert.equal((await read(topic))?.title, "original");
      assert.equal((await post(update(topic, "by manager"), alice.token)).status, 200);
      const shared = await server.factories.topic(group, bob, { allowEdit: true });
      assert.equal((await post(update(shared, "by carol"), carol.token)).status, 200);
      assertError(await post(op("delete", shared), carol.token), 403, "TOPIC_DELETE_FORBIDDEN");
      assertError(await post(update(topic, "x"), outsider.token), 403, "GROUP_NOT_JOINED");
    });

    it("answers each error row with its status and leaves data unchanged", async () => {
      const missing = { ...topic, id: 999999 };
      assertError(await post(update(missing, "x"), bob.token), 404, "TOPIC_NOT_FOUND");
      assertError(await post(op("delete", missing), bob.token), 404, "TOPIC_NOT_FOUND");
      const two = `<feed ${CLIENT_NS}><cbl:operation type="update"/><entry><id>${topicId(topic)}</id><title>a</title></entry><entry><id>${topicId(topic)}</id><title>b</title></entry></feed>`;
      assertError(await post(two, bob.token), 400, "MULTIPLE_ENTRIES");
      const twoDeletes = `<feed ${CLIENT_NS}><cbl:operation type="delete"/><entry><id>${topicId(topic)}</id></entry><entry><id>${topicId(topic)}</id></entry></feed>`;
      assertError(await post(twoDeletes, bob.token), 400, "MULTIPLE_ENTRIES");
      assertError(await post(update(topic, "x".repeat(201)), bob.token), 400, "TOPIC_TITLE_TOO_LONG");
      assertError(await post(update(topic, ""), bob.token), 400, "TOPIC_TITLE_REQUIRED");
      assertError(
        await post(`<feed ${CLIENT_NS}><cbl:operation type="frobnicate"/><entry/></feed>`, bob.token),
        400,
        "INVALID_OPERATION",
      );
      assertError(
        await post(
          `<feed ${CLIENT_NS}><cbl:operation type="update"/><entry><title>x</title></entry></feed>`,
          bob.token,
        ),
        400,
        "ENTRY_ID_REQUIRED",
      );
      assert.deepEqual(await read(topic), topic);
    });

    it("deletes a topic with its comments", async () => {
      const ref = { kind: "BOARD" as const, groupId: group.id, id: topic.id };
      await server.store.transaction(async (tx) => {
        await tx.comments.insert({
          parent: ref,
          number: await tx.comments.nextNumber(ref),
          authorId: bob.id,
          body: "c",
          replyTo: null,
          at: server.clock.now(),
        });
      });
      const answer = await post(op("DELETE", topic), bob.token);
      assert.equal(answer.status, 200, answer.text);
      await assertValidAtom(answer.text);
      assert.equal(atomText(entriesOf(answer.xml)[0]!, "id"), topicId(topic));
      assert.equal(await read(topic), undefined);
      assert.deepEqual(await server.store.read((tx) => tx.comments.listAll([ref])), []);
      assertError(
        await request(`${server.url}/api/board/V2?entry=${topicId(topic)}`, { token: bob.token }),
        404,
        "TOPIC_NOT_FOUND",
      );
    });

    it("holds others off with a lease (409) until the holder updates, unlocks, or it expires", async () => {
      assert.equal((await post(op("lock", topic), alice.token)).status, 200);
      const refused = await post(update(topic, "by bob"), bob.token);
      assertError(refused, 409, "TOPIC_BEING_EDITED");
      assert.match(refused.xml.text, /Alice/, "names the holder");
      assertError(await post(op("delete", topic), bob.token), 409, "TOPIC_BEING_EDITED");
      assertError(await post(op("lock", topic), bob.token), 409, "TOPIC_BEING_EDITED");
      assertError(await post(op("unlock", topic), bob.token), 409, "TOPIC_BEING_EDITED");
      assert.equal((await read(topic))?.title, "original");
      assert.equal(
        (await post(update(topic, "by alice"), alice.token)).status,
        200,
        "the holder's update releases the lease",
      );
      assert.equal((await post(update(topic, "by bob"), bob.token)).status, 200);

      assert.equal((await post(op("lock", topic), alice.token)).status, 200);
      assert.equal((await post(op("unlock", topic), alice.token)).status, 200);
      assert.equal((await post(update(topic, "after unlock"), bob.token)).status, 200);

      assert.equal((await post(op("lock", topic), alice.token)).status, 200);
      server.clock.advance(9 * 60 * 1000);
      assertError(await post(update(topic, "x"), bob.token), 409, "TOPIC_BEING_EDITED");
      assert.equal((await post(op("lock", topic), alice.token)).status, 200, "renewed");
      server.clock.advance(9 * 60 * 1000);
      assertError(await post(update(topic, "x"), bob.token), 409, "TOPIC_BEING_EDITED");
      server.clock.advance(60 * 1000 + 1);
      assert.equal((await post(update(topic, "expired"), bob.token)).status, 200, "an expired lease holds nobody off");
      assertError(await post(op("lock", topic), carol.token), 403, "TOPIC_UPDATE_FORBIDDEN");
    });
  });

  describe("legacy add comment (no operation, feed/id = topic)", () => {
    it("adds a comment through the same service as the comment endpoint", async () => {
      const topic = await server.factories.topic(group, alice);
      const body = `<feed ${CLIENT_NS}><id>${topicId(topic)}</id><entry><summary type="text">hello [file:1]</summary></entry></feed>`;
      const answer = await post(body, bob.token);
      assert.equal(answer.status, 200, answer.text);
      await assertValidAtom(answer.text);
      const reply = `<feed ${CLIENT_NS}><id>${topicId(topic)}</id><entry><summary type="text">re</summary><cblCmnt:replyTo>1</cblCmnt:replyTo></entry></feed>`;
      assert.equal((await post(reply, alice.token)).status, 200);
      const comments = await server.store.read((tx) =>
        tx.comments.listAll([{ kind: "BOARD", groupId: group.id, id: topic.id }]),
      );
      assert.deepEqual(
        comments.map((c) => [c.number, c.body, c.replyTo]),
        [
          [2, "re", 1],
          [1, "hello [file:1]", null],
        ],
      );
      const badReply = `<feed ${CLIENT_NS}><id>${topicId(topic)}</id><entry><summary type="text">re</summary><cblCmnt:replyTo>9</cblCmnt:replyTo></entry></feed>`;
      assertError(await post(badReply, alice.token), 400, "REPLY_TO_NOT_FOUND");
      const empty = `<feed ${CLIENT_NS}><id>${topicId(topic)}</id><entry><summary type="text"> </summary></entry></feed>`;
      assertError(await post(empty, alice.token), 400, "COMMENT_TEXT_REQUIRED");
      const long = `<feed ${CLIENT_NS}><id>${topicId(topic)}</id><entry><summary type="text">${"😀".repeat(20001)}</summary></entry></feed>`;
      assertError(await post(long, alice.token), 400, "COMMENT_TEXT_TOO_LONG");
      assert.equal((await post(long.replace("😀".repeat(20001), "😀".repeat(20000)), alice.token)).status, 200);
      const missing = `<feed ${CLIENT_NS}><id>GROUP,1:${group.id},BOARD,1:999999</id><entry><summary type="text">x</summary></entry></feed>`;
      assertError(await post(missing, alice.token), 404, "TOPIC_NOT_FOUND");
    });
  });

  describe("hostile and broken bodies", () => {
    it("refuses malformed XML, DOCTYPEs, entity bombs, other media types and huge bodies, and keeps serving", async () => {
      const before = await countTopics();
      assertError(await post("<feed><entry>", bob.token), 400, "XML_MALFORMED");
      assertError(await post("not xml at all", bob.token), 400, "XML_MALFORMED");
      assertError(await post("", bob.token), 400, "BODY_REQUIRED");
      const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><feed ${CLIENT_NS}><entry><cbl:group id="1:${group.id}"/><title>&lol3;</title></entry></feed>`;
      assertError(await post(laughs, bob.token), 400, "XML_DOCTYPE_FORBIDDEN");
      const xxe = `<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><feed ${CLIENT_NS}><entry><cbl:group id="1:${group.id}"/><title>&xxe;</title></entry></feed>`;
      assertError(await post(xxe, bob.token), 400, "XML_DOCTYPE_FORBIDDEN");
      assertError(await post(create("json?"), bob.token, "", "application/json"), 415, "UNSUPPORTED_MEDIA_TYPE");
      assertError(
        await post("title=x", bob.token, "", "application/x-www-form-urlencoded"),
        415,
        "UNSUPPORTED_MEDIA_TYPE",
      );
      assertError(await post(create("big", "x".repeat(1024 * 1024 + 1)), bob.token), 413, "BODY_TOO_LARGE");
      const deep = `<feed ${CLIENT_NS}>${"<x>".repeat(40)}${"</x>".repeat(40)}</feed>`;
      assertError(await post(deep, bob.token), 400, "XML_TOO_DEEP");
      assert.equal(await countTopics(), before, "nothing written");
      assert.equal((await post(create("still serving"), bob.token)).status, 200);
    });
  });
});
