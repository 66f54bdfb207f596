import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Actor } from "../../src/domain/access.js";
import type { Group } from "../../src/domain/group.js";
import type { ContentRef } from "../../src/domain/item-id.js";
import { LIMITS } from "../../src/domain/limits.js";
import { TopicBeingEditedError } from "../../src/domain/topic.js";
import { lockTopic } from "../../src/services/topic/topic.js";
import type { TestUser } from "../support/factories.js";
import { CLIENT_NS, request } from "../support/http.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";

// The lock operation takes the edit lease and answers with the topic in one transaction: the answer
// is the topic as it stands under the lease just taken, byte for byte what a read of it then shows.
describeEachBackend("POST /api/board/V2 lock", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;
  const actorOf = (user: TestUser): Actor => ({
    user,
    app: { id: 0, name: "test", consumerKey: "test", accessLevel: "Z" },
  });
  const idOf = (ref: ContentRef) => `GROUP,1:${ref.groupId},BOARD,1:${ref.id}`;
  const lock = (ref: ContentRef, token: string) =>
    request(`${server.url}/api/board/V2`, {
      token,
      body: `<feed ${CLIENT_NS}><cbl:operation type="lock"/><entry><id>${idOf(ref)}</id></entry></feed>`,
    });

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    group = await server.factories.group([alice, bob], { managers: [alice] });
  });
  after(() => server.close());

  it("answers with the topic as a read shows it, under the lease just taken", async () => {
    const topic = await server.factories.topic(group, bob, { title: "to edit", body: "body" });
    const ref = { kind: "BOARD" as const, groupId: group.id, id: topic.id };
    server.clock.advance(1000);
    const taken = server.clock.now();
    const answer = await lock(ref, alice.token);
    assert.equal(answer.status, 200, answer.text);
    const read = await request(`${server.url}/api/board/V2?entry=${idOf(ref)}`, { token: alice.token });
    // The same feed but for the WebSub links, which only a GET carries (the feed's own address).
    const withoutWebSub = (xml: string) => xml.replace(/<link rel="hub"[^>]*\/><link rel="self"[^>]*\/>/, "");
    assert.equal(answer.text, withoutWebSub(read.text), "the lock answer is the topic's own feed");
    const stored = await server.store.read((tx) => tx.leases.find(topic.id));
    assert.equal(stored?.userId, alice.id);
    assert.equal(stored?.since, taken);
    assert.equal(stored?.until, taken + LIMITS.editLeaseMs);

    server.clock.advance(60_000);
    const renewed = await lockTopic(server, actorOf(alice), { ref });
    assert.deepEqual(renewed.lease, await server.store.read((tx) => tx.leases.find(topic.id)), "the lease it stored");
    assert.equal(renewed.lease.since, taken, "a renewal keeps when the editing began");
    assert.equal(renewed.lease.until, server.clock.now() + LIMITS.editLeaseMs);
    assert.deepEqual(renewed.topics, [renewed.topic]);
    assert.deepEqual(renewed.topic, await server.store.read((tx) => tx.topics.findById(topic.id)));
    assert.equal(renewed.group.id, group.id);
    assert.equal(renewed.comments, undefined);

    await assert.rejects(lockTopic(server, actorOf(bob), { ref }), (error: unknown) => {
      assert.ok(error instanceof TopicBeingEditedError);
      assert.equal(error.lease.userName, "Alice");
      return true;
    });
  });
});
