// An archived group over the API, on every engine: each write a client can send (a topic, its
// update, a comment, an event, a like, a favorite) is refused with 403 GROUP_ARCHIVED and changes
// nothing; every read (board, comments, tasks, files, members, events) goes on; a stranger still
// learns only GROUP_NOT_JOINED; restored, the group takes writes again.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import type { Topic } from "../../src/domain/topic.js";
import { OPERATOR } from "../../src/services/account/site-admin.js";
import { setGroupArchived } from "../../src/services/group/group-admin.js";
import { describeEachBackend } from "../support/backends.js";
import { postEvent } from "../support/events.js";
import type { TestUser } from "../support/factories.js";
import { CLIENT_NS, assertError, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("an archived group over the API", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let outsider: TestUser;
  let group: Group;
  let topic: Topic;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    outsider = await server.factories.user({ name: "Out Sider" });
    group = await server.factories.group([alice]);
    topic = await server.factories.topic(group, alice, { title: "Kept" });
    await server.factories.task(group, alice, { title: "A task" });
    await setGroupArchived(ctx(), OPERATOR, { groupId: group.id, archived: true });
  });
  after(() => server.close());

  const ctx = () => ({ store: server.store, blobs: server.blobs, clock: server.clock });
  const topicId = () => `GROUP,1:${group.id},BOARD,1:${topic.id}`;
  const post = (path: string, body: string, token = alice.token) => request(`${server.url}${path}`, { token, body });
  const writes = () => ({
    "board insert": post(
      "/api/board/V2",
      `<feed ${CLIENT_NS}><entry><cbl:group id="1:${group.id}"/><title>New</title><summary type="text">B</summary></entry></feed>`,
    ),
    "board update": post(
      "/api/board/V2",
      `<feed ${CLIENT_NS}><cbl:operation type="update"/><entry><id>${topicId()}</id><title>Changed</title></entry></feed>`,
    ),
    comment: post(
      "/api/comment/V2",
      `<feed ${CLIENT_NS}><cbl:operation type="insert"/><id>${topicId()}</id><entry><summary type="text">Hi</summary></entry></feed>`,
    ),
    event: postEvent(server.url, alice.token, {
      groupId: group.id,
      title: "Meeting",
      start: "2026-12-01T01:00:00Z",
      end: "2026-12-01T02:00:00Z",
    }),
    like: post(
      "/api/good/V2",
      `<feed ${CLIENT_NS}><cbl:operation type="insert"/><entry><id>${topicId()}</id></entry></feed>`,
    ),
    favorite: post(
      "/api/star/V2",
      `<feed ${CLIENT_NS}><cbl:operation type="insert"/><entry><id>${topicId()}</id></entry></feed>`,
    ),
  });

  it("refuses every write with 403 GROUP_ARCHIVED and changes nothing", async () => {
    for (const [name, answer] of Object.entries(writes())) {
      const got = await answer;
      assert.equal(got.status, 403, `${name}: ${got.text}`);
      assertError(got, 403, "GROUP_ARCHIVED");
    }
    const kept = await server.store.read((tx) => tx.topics.findById(topic.id));
    assert.equal(kept?.title, "Kept");
    const comments = await server.store.read((tx) =>
      tx.comments.listAll([{ kind: "BOARD", groupId: group.id, id: topic.id }]),
    );
    assert.equal(comments.length, 0);
  });

  it("keeps every read working", async () => {
    for (const path of [
      `/api/board/V2?group=1:${group.id}`,
      `/api/comment/V2?entry=${topicId()}`,
      `/api/gwTask/V2?group=1:${group.id}`,
      `/api/gwCabinet/V2?group=1:${group.id}`,
      `/api/gwMemberList/V2?group=1:${group.id}`,
      `/api/gwSchedule/V2?group=1:${group.id}`,
    ]) {
      const answer = await request(`${server.url}${path}`, { token: alice.token });
      assert.equal(answer.status, 200, `${path}: ${answer.text.slice(0, 300)}`);
    }
  });

  it("tells a stranger only that they are not a member", async () => {
    const answer = await post(
      "/api/board/V2",
      `<feed ${CLIENT_NS}><entry><cbl:group id="1:${group.id}"/><title>X</title></entry></feed>`,
      outsider.token,
    );
    assertError(answer, 403, "GROUP_NOT_JOINED");
  });

  it("takes writes again once restored", async () => {
    await setGroupArchived(ctx(), OPERATOR, { groupId: group.id, archived: false });
    const answer = await writes()["board insert"];
    assert.equal(answer.status, 200, answer.text);
    await setGroupArchived(ctx(), OPERATOR, { groupId: group.id, archived: true });
  });
});
