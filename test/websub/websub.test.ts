import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import type { Actor } from "../../src/domain/access.js";
import { WEBSUB_LIMITS } from "../../src/domain/websub.js";
import { leaveGroup } from "../../src/services/group/group-manage.js";
import { describeEachBackend } from "../support/backends.js";
import { eventually } from "../support/eventually.js";
import type { TestUser } from "../support/factories.js";
import { CLIENT_NS, assertError, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type Subscriber, startSubscriber } from "./subscriber.js";

const HOUR = 3_600_000;

function actorOf(user: TestUser): Actor {
  return { user, app: { id: 0, name: "test", consumerKey: "", accessLevel: "Z" } };
}

/** A group of two, a topic, and the topic's comment feed. */
interface Scene {
  readonly reader: TestUser;
  readonly writer: TestUser;
  readonly group: Group;
  readonly topicId: string;
  readonly topicUrl: string;
}

describeEachBackend("WebSub hub", (backend) => {
  let server: TestServer;
  let subscriber: Subscriber;
  let main: Scene;
  before(async () => {
    // A poll of an hour: every push the tests see comes from the wake after a commit.
    server = await startTestServer(backend, { webhookAllowPrivate: true, websubPollMs: HOUR });
    subscriber = await startSubscriber();
    main = await scene();
  });
  after(async () => {
    await server.close();
    await subscriber.close();
  });

  const scene = async (): Promise<Scene> => {
    const reader = await server.factories.user({ name: "Alice" });
    const writer = await server.factories.user({ name: "Bob" });
    const group = await server.factories.group([reader, writer], { managers: [writer] });
    const topic = await server.factories.topic(group, writer);
    const topicId = `GROUP,1:${group.id},BOARD,1:${topic.id}`;
    const topicUrl = `${server.url}/api/comment/V2?entry=${encodeURIComponent(topicId)}`;
    return { reader, writer, group, topicId, topicUrl };
  };
  const hub = (fields: Record<string, string>, token: string | undefined) =>
    request(`${server.url}/websub`, {
      ...(token === undefined ? {} : { token }),
      body: new URLSearchParams(fields).toString(),
      contentType: "application/x-www-form-urlencoded",
    });
  const comment = async (at: Scene, text: string) => {
    const body = `<feed ${CLIENT_NS}><cbl:operation type="insert"/><id>${at.topicId}</id><entry><summary type="text">${text}</summary></entry></feed>`;
    const answer = await request(`${server.url}/api/comment/V2`, { token: at.writer.token, body });
    assert.equal(answer.status, 200, answer.text);
  };
  const subscriptionsOf = async (user: TestUser) => (await server.store.read((tx) => tx.websub.ofUser(user.id))).length;
  /** Asks, waits for the verification and for the pass that made it to end. */
  const ask = async (at: Scene, mode: "subscribe" | "unsubscribe", fields: Record<string, string> = {}) => {
    subscriber.intend(mode, at.topicUrl);
    const seen = subscriber.verifications.length;
    const answer = await hub(
      { "hub.mode": mode, "hub.topic": at.topicUrl, "hub.callback": subscriber.callback, ...fields },
      at.reader.token,
    );
    assert.equal(answer.status, 202, answer.text);
    await eventually(() => subscriber.verifications.length > seen, "the hub verifies the intent");
    await server.app.websubHub.runNow();
  };

  it("gives every feed a hub and a self link after its other links", async () => {
    const answer = await request(`${main.topicUrl}&max-results=5`, { token: main.reader.token });
    assert.equal(answer.status, 200);
    const entryAt = answer.text.indexOf("<entry>");
    const head = entryAt === -1 ? answer.text : answer.text.slice(0, entryAt);
    const hubLink = `<link rel="hub" href="${server.url}/websub"/>`;
    const self = `<link rel="self" type="application/atom+xml" href="${main.topicUrl}&amp;max-results=5"/>`;
    assert.ok(head.includes(hubLink + self), answer.text);
    assert.equal(head.lastIndexOf("<link "), head.indexOf(self), "no link of the head follows them");
    const signed = await request(`${main.topicUrl}&oauth_token=x`, { token: main.reader.token });
    assert.ok(signed.text.includes(`href="${main.topicUrl}"/>`), "the self link carries no credentials");
  });

  it("pushes a new comment to a verified subscriber, signed, and nothing once its token is revoked", async () => {
    subscriber.secret = "s".repeat(WEBSUB_LIMITS.secretMaxBytes);
    await ask(main, "subscribe", { "hub.lease_seconds": "59", "hub.secret": subscriber.secret });
    const verification = subscriber.verifications.at(-1);
    assert.equal(verification?.confirmed, true);
    assert.equal(verification.mode, "subscribe");
    assert.equal(verification.topic, main.topicUrl);
    assert.equal(verification.leaseSeconds, String(WEBSUB_LIMITS.leaseMinSeconds), "a short lease is raised");
    assert.equal(await subscriptionsOf(main.reader), 1);
    assert.equal(subscriber.distributions.length, 0, "subscribing pushes nothing");

    await comment(main, "pushed at once");
    await eventually(() => subscriber.distributions.length === 1, "the new comment is pushed after its commit");
    const pushed = subscriber.distributions[0];
    assert.ok(pushed?.authentic, "X-Hub-Signature is the HMAC of the body under the secret");
    assert.match(String(pushed.headers["content-type"]), /^application\/atom\+xml/);
    assert.equal(pushed.headers.link, `<${server.url}/websub>; rel="hub", <${main.topicUrl}>; rel="self"`);
    assert.match(pushed.body, /pushed at once/);
    assert.match(pushed.body, /<author><name>Alice<\/name>/, "the feed as its subscriber sees it");

    await server.app.websubHub.runNow();
    assert.equal(subscriber.distributions.length, 1, "an unchanged feed is not pushed again");

    await server.store.transaction((tx) =>
      tx.tokens.revokeAppOfUser(main.reader.id, main.reader.consumer.id, "personal", server.clock.now()),
    );
    await comment(main, "never pushed");
    await server.app.websubHub.runNow();
    assert.equal(subscriber.distributions.length, 1, "nothing reaches a revoked token's subscription");
    assert.equal(await subscriptionsOf(main.reader), 0, "the subscription ended with its token");
    subscriber.secret = undefined;
  });

  it("ends a subscription when its subscriber leaves the group", async () => {
    const at = await scene();
    await ask(at, "subscribe");
    assert.equal(await subscriptionsOf(at.reader), 1);
    const ctx = { store: server.store, blobs: server.blobs, clock: server.clock };
    await leaveGroup(ctx, actorOf(at.reader), { groupId: at.group.id });
    const before = subscriber.distributions.length;
    await comment(at, "after leaving");
    await server.app.websubHub.runNow();
    assert.equal(subscriber.distributions.length, before);
    assert.equal(await subscriptionsOf(at.reader), 0);
  });

  it("unsubscribes after verifying the intent, and ends a subscription at the end of its lease", async () => {
    const at = await scene();
    await ask(at, "subscribe");
    await ask(at, "unsubscribe");
    assert.equal(subscriber.verifications.at(-1)?.mode, "unsubscribe");
    assert.equal(await subscriptionsOf(at.reader), 0);
    const before = subscriber.distributions.length;
    await comment(at, "after unsubscribing");
    await server.app.websubHub.runNow();
    assert.equal(subscriber.distributions.length, before);

    await ask(at, "subscribe", { "hub.lease_seconds": "120" });
    assert.equal(await subscriptionsOf(at.reader), 1);
    server.clock.advance(121_000);
    await comment(at, "after the lease");
    await server.app.websubHub.runNow();
    assert.equal(subscriber.distributions.length, before, "nothing after the lease");
    assert.equal(await subscriptionsOf(at.reader), 0);
  });

  it("makes no subscription when the callback does not confirm the intent", async () => {
    const at = await scene();
    const seen = subscriber.verifications.length;
    const answer = await hub(
      { "hub.mode": "subscribe", "hub.topic": at.topicUrl, "hub.callback": subscriber.callback },
      at.reader.token,
    );
    assert.equal(answer.status, 202);
    await eventually(() => subscriber.verifications.length > seen, "the hub asks");
    await server.app.websubHub.runNow();
    assert.equal(subscriber.verifications.at(-1)?.confirmed, false);
    assert.equal(await subscriptionsOf(at.reader), 0);
  });

  it("refuses bad requests with the API's error document, at their limits", async () => {
    const token = main.writer.token;
    const fields = { "hub.mode": "subscribe", "hub.topic": main.topicUrl, "hub.callback": subscriber.callback };
    assertError(await hub(fields, undefined), 401, "AUTHENTICATION_REQUIRED");
    assertError(await hub({ ...fields, "hub.mode": "publish" }, token), 400, "WEBSUB_MODE_INVALID");
    assertError(await hub({ ...fields, "hub.callback": "ftp://x/" }, token), 400, "WEBSUB_CALLBACK_INVALID");
    assertError(
      await hub({ ...fields, "hub.topic": "https://elsewhere.example/api/comment/V2" }, token),
      400,
      "WEBSUB_TOPIC_FOREIGN",
    );
    assertError(
      await hub({ ...fields, "hub.topic": `${server.url}/api/nothing` }, token),
      400,
      "WEBSUB_TOPIC_NOT_A_FEED",
    );
    assertError(await hub({ ...fields, "hub.lease_seconds": "-1" }, token), 400, "WEBSUB_LEASE_INVALID");
    assertError(
      await hub({ ...fields, "hub.secret": "s".repeat(WEBSUB_LIMITS.secretMaxBytes + 1) }, token),
      400,
      "WEBSUB_SECRET_TOO_LONG",
    );
    assertError(await hub({ ...fields, "hub.secret": "é".repeat(100) }, token), 400, "WEBSUB_SECRET_TOO_LONG");
    const outsider = await server.factories.user();
    await server.factories.group([outsider]);
    assertError(await hub(fields, outsider.token), 403, "WEBSUB_TOPIC_FORBIDDEN");
    assertError(await hub({ ...fields, "hub.mode": "unsubscribe" }, token), 404, "WEBSUB_NOT_SUBSCRIBED");
    const plain = await request(`${server.url}/websub`, { token, body: "{}", contentType: "application/json" });
    assertError(plain, 415, "UNSUPPORTED_MEDIA_TYPE");
    await server.app.websubHub.runNow();
    assert.equal(await subscriptionsOf(main.writer), 0, "no refusal queued anything");
  });
});

describeEachBackend("WebSub hub without --webhook-allow-private", (backend) => {
  it("never calls a callback on a private address", async () => {
    const server = await startTestServer(backend, { websubPollMs: HOUR });
    const subscriber = await startSubscriber();
    try {
      const reader = await server.factories.user();
      const group = await server.factories.group([reader]);
      const topic = await server.factories.topic(group, reader);
      const topicUrl = `${server.url}/api/comment/V2?entry=${encodeURIComponent(`GROUP,1:${group.id},BOARD,1:${topic.id}`)}`;
      subscriber.intend("subscribe", topicUrl);
      const answer = await request(`${server.url}/websub`, {
        token: reader.token,
        body: new URLSearchParams({
          "hub.mode": "subscribe",
          "hub.topic": topicUrl,
          "hub.callback": subscriber.callback,
        }).toString(),
        contentType: "application/x-www-form-urlencoded",
      });
      assert.equal(answer.status, 202);
      await server.app.websubHub.runNow();
      await eventually(
        async () => (await server.store.read((tx) => tx.websub.nextAttemptAt(server.clock.now()))) === undefined,
        "the verification is given up",
      );
      assert.equal(subscriber.verifications.length, 0);
      assert.deepEqual(await server.store.read((tx) => tx.websub.all()), []);
    } finally {
      await server.close();
      await subscriber.close();
    }
  });
});
