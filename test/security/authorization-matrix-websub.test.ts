// The authorization matrix of the WebSub hub (`POST /websub`) and of the cancel form of a person's
// subscriptions (`/account/websub/:id`), x every caller who may not: signed out or without
// credentials, a revoked token, an outsider of the secret group, an application below the feed's
// access level, another member. Each is refused with the API's error document (or a page refusal),
// and nothing is queued, verified or ended; the member succeeds.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { assertError, request } from "../support/http.js";
import { type Snapshotter, describeChange, openSnapshotter } from "../support/snapshot.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient } from "../support/web.js";
import { type Subscriber, startSubscriber } from "../websub/subscriber.js";
import { eventually } from "../support/eventually.js";

describeEachBackend("authorization matrix: the WebSub hub x every caller", (backend) => {
  let server: TestServer;
  let snapshots: Snapshotter;
  let subscriber: Subscriber;
  let member: TestUser;
  let other: TestUser;
  let outsider: TestUser;
  let readOnly: TestUser;
  let revoked: TestUser;
  let topicUrl = "";
  let subscriptionId = 0;

  before(async () => {
    server = await startTestServer(backend, { webhookAllowPrivate: true, websubPollMs: 3_600_000 });
    subscriber = await startSubscriber();
    const f = server.factories;
    member = await f.user({ name: "Member" });
    other = await f.user({ name: "Other member" });
    outsider = await f.user({ name: "Outsider" });
    revoked = await f.user({ name: "Revoked" });
    const group = await f.group([member, other, revoked], { managers: [member] });
    await f.group([outsider]);
    // The comment feed needs the `comments` level: a `read` application of the member is refused.
    readOnly = await f.sameUserAt(member, "read");
    const topic = await f.topic(group, member);
    topicUrl = `${server.url}/api/comment/V2?entry=${encodeURIComponent(`GROUP,1:${group.id},BOARD,1:${topic.id}`)}`;
    await server.store.transaction((tx) =>
      tx.tokens.revokeAppOfUser(revoked.id, revoked.consumer.id, "personal", server.clock.now()),
    );
    // The member's subscription, which no one else may end.
    subscriber.intend("subscribe", topicUrl);
    assert.equal((await hub("subscribe", member.token)).status, 202);
    await eventually(() => subscriber.verifications.length === 1, "the member's subscription is verified");
    await server.app.websubHub.runNow();
    const [made] = await server.store.read((tx) => tx.websub.all());
    assert.ok(made !== undefined);
    subscriptionId = made.id;
    snapshots = openSnapshotter(server);
  });
  after(async () => {
    await snapshots?.close();
    await server?.close();
    await subscriber?.close();
  });

  const hub = (mode: string, token: string | undefined) =>
    request(`${server.url}/websub`, {
      ...(token === undefined ? {} : { token }),
      body: new URLSearchParams({
        "hub.mode": mode,
        "hub.topic": topicUrl,
        "hub.callback": subscriber.callback,
      }).toString(),
      contentType: "application/x-www-form-urlencoded",
    });

  it("refuses every caller but the member, queues nothing and ends nothing", async () => {
    const before = await snapshots.take();
    const refusals: [string, string | undefined, string, number, string][] = [
      ["no credentials", undefined, "subscribe", 401, "AUTHENTICATION_REQUIRED"],
      ["no credentials", undefined, "unsubscribe", 401, "AUTHENTICATION_REQUIRED"],
      ["a revoked token", revoked.token, "subscribe", 401, "TOKEN_REJECTED"],
      ["an outsider", outsider.token, "subscribe", 403, "WEBSUB_TOPIC_FORBIDDEN"],
      ["an application below the feed's level", readOnly.token, "subscribe", 403, "WEBSUB_TOPIC_FORBIDDEN"],
      ["another member", other.token, "unsubscribe", 404, "WEBSUB_NOT_SUBSCRIBED"],
      ["an outsider", outsider.token, "unsubscribe", 404, "WEBSUB_NOT_SUBSCRIBED"],
    ];
    for (const [who, token, mode, status, code] of refusals) {
      const answer = await hub(mode, token);
      assert.equal(answer.status, status, `${who} ${mode}: ${answer.text}`);
      assertError(answer, status, code);
    }
    await server.app.websubHub.runNow();
    assert.equal(describeChange(before, await snapshots.take()), "");
    assert.equal(subscriber.verifications.length, 1, "no callback was asked");
  });

  it("lets no one but its subscriber cancel a subscription in the browser", async () => {
    const signedOut = new WebClient(server.url);
    const callers: { name: string; web: WebClient }[] = [{ name: "signed out", web: signedOut }];
    for (const user of [other, outsider]) {
      const web = new WebClient(server.url);
      await web.signIn(user.email);
      await web.get("/account/webhooks");
      callers.push({ name: user.name, web });
    }
    const homes = await Promise.all(callers.map(({ web }) => web.get("/")));
    const before = await snapshots.take();
    for (const [index, { name, web }] of callers.entries()) {
      const page = await web.get("/account/webhooks");
      assert.ok(!page.html.includes(subscriber.callback), `${name} sees the subscription`);
      const cancel = await web.post(
        `/account/websub/${subscriptionId}`,
        { act: "cancel" },
        homes[index]?.status === 200 ? {} : { csrf: null },
      );
      assert.ok(cancel.status === 403 || cancel.status === 404, `${name} cancels: ${cancel.status}`);
    }
    assert.equal(describeChange(before, await snapshots.take()), "");

    const own = new WebClient(server.url);
    await own.signIn(member.email);
    const page = await own.get("/account/webhooks");
    assert.ok(page.html.includes(subscriber.callback), "the subscriber sees their subscription");
    const cancel = await own.post(`/account/websub/${subscriptionId}`, { act: "cancel" });
    assert.equal(cancel.status, 303);
    assert.deepEqual(await server.store.read((tx) => tx.websub.all()), []);
    assert.ok(!(await own.get("/account/webhooks")).html.includes(subscriber.callback));
  });
});
