// The authorization matrix of incoming webhooks (/hooks/<secret>): the secret is the only
// credential. Each hook posts into its own place only (a hook of group A never reaches group B or a
// room), as its creator whatever Authorization header comes with it; every address no hook has
// (a guess, a near miss, the stored hash itself, a revoked secret) is the same 404 and changes nothing.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { hashToken } from "../../src/auth/token.js";
import type { Actor } from "../../src/domain/access.js";
import type { HookTarget } from "../../src/domain/incoming-hook.js";
import { writeRoom } from "../../src/services/chat/chat.js";
import { createHook, removeHook } from "../../src/services/hook/incoming-hook.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { request } from "../support/http.js";
import { type Snapshotter, describeChange, openSnapshotter } from "../support/snapshot.js";
import { type TestServer, startTestServer } from "../support/server.js";

const actorOf = (user: TestUser): Actor => ({
  user: { id: user.id, name: user.name, email: user.email },
  app: { id: 0, name: "test", consumerKey: "", accessLevel: "Z" },
});

describeEachBackend("incoming webhooks: every secret x every place", (backend) => {
  let server: TestServer;
  let snapshots: Snapshotter;
  const secrets = new Map<string, { secret: string; target: HookTarget; hookId: number }>();
  const post = (secret: string, headers: Record<string, string> = {}) =>
    request(`${server.url}/hooks/${secret}`, {
      body: JSON.stringify({ text: "matrix" }),
      contentType: "application/json",
      headers,
    });

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    const ann = await f.user({ name: "Ann" });
    const ben = await f.user({ name: "Ben" });
    const a = await f.group([ann, ben], { managers: [ann] });
    const b = await f.group([ben], { managers: [ben] });
    const topicA = await f.topic(a, ben);
    const ctx = { store: server.store, blobs: server.blobs, clock: server.clock };
    const room = await writeRoom(ctx, actorOf(ben), { op: "create", type: "THEME", title: "r", memberIds: [ann.id] });
    const make = async (name: string, user: TestUser, target: HookTarget) => {
      const made = await createHook(ctx, actorOf(user), { target, name });
      secrets.set(name, { secret: made.secret, target, hookId: made.hook.id });
    };
    await make("A topics", ann, { kind: "topic", groupId: a.id });
    await make("A comments", ann, { kind: "comment", groupId: a.id, topicId: topicA.id });
    await make("B topics", ben, { kind: "topic", groupId: b.id });
    await make("Room", ben, { kind: "chat", roomId: room.room.id });
    await make("Revoked", ann, { kind: "topic", groupId: a.id });
    await removeHook(ctx, actorOf(ann), secrets.get("Revoked")!.hookId);
    snapshots = openSnapshotter(server);
  });
  after(async () => {
    await snapshots?.close();
    await server?.close();
  });

  it("posts each hook's text into its own place only, as its creator, whatever credentials come with it", async () => {
    const stranger = await server.factories.user({ name: "Stranger" });
    for (const [name, { secret, target }] of secrets) {
      if (name === "Revoked") continue;
      const answer = await post(secret, { authorization: `Bearer ${stranger.token}` });
      assert.equal(answer.status, 201, `${name}: ${answer.text}`);
      const { id } = JSON.parse(answer.text) as { id: string };
      const expected =
        target.kind === "chat"
          ? new RegExp(`^MYPAGE,1:\\d+,MP_CHAT,1:${target.roomId},COMMENT,\\d+$`)
          : target.kind === "comment"
            ? new RegExp(`^GROUP,1:${target.groupId},BOARD,1:${target.topicId},COMMENT,\\d+$`)
            : new RegExp(`^GROUP,1:${target.groupId},BOARD,1:\\d+$`);
      assert.match(id, expected, name);
    }
  });

  it("answers every address no hook has with the same 404 and changes nothing", async () => {
    const live = secrets.get("A topics")!.secret;
    const flipped = `${live.slice(0, -1)}${live.endsWith("A") ? "B" : "A"}`;
    const before = await snapshots.take();
    const bodies = new Set<string>();
    for (const guess of [
      secrets.get("Revoked")!.secret,
      flipped,
      hashToken(live),
      live.toLowerCase() === live ? live.toUpperCase() : live.toLowerCase(),
      "x",
      "%00",
      "..%2Fapi",
      "a".repeat(90),
    ]) {
      const answer = await post(guess);
      assert.equal(answer.status, 404, `${guess}: ${answer.text}`);
      bodies.add(answer.text);
    }
    assert.equal(bodies.size, 1, "one answer for every guess: nothing tells a near miss from a wild one");
    assert.equal(describeChange(before, await snapshots.take()), "");
  });
});
