import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { Webhook } from "standardwebhooks";
import type { Actor } from "../../src/domain/access.js";
import { formatCommentId, formatContentId } from "../../src/domain/item-id.js";
import { WEBHOOK_LIMITS } from "../../src/domain/webhook.js";
import type { User } from "../../src/domain/user.js";
import { addComment } from "../../src/services/comment/comment.js";
import { leaveGroup } from "../../src/services/group/group-manage.js";
import { createTopic } from "../../src/services/topic/topic.js";
import {
  addWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  removeWebhook,
  setWebhookEnabled,
} from "../../src/services/webhook/webhooks.js";
import type { ServiceContext } from "../../src/services/context.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type Receiver, startReceiver } from "./receiver.js";

function actorOf(user: User): Actor {
  return { user, app: { id: 0, name: "test", consumerKey: "", accessLevel: "Z" } };
}

const MINUTE = 60_000;

describeEachBackend("outgoing webhooks", (backend) => {
  let server: TestServer;
  let receiver: Receiver;
  let ctx: ServiceContext;
  before(async () => {
    server = await startTestServer(backend, { webhookAllowPrivate: true });
    // Signatures are checked by the library against the real time: the server's clock starts there.
    server.clock.advance(Math.max(0, Date.now() - server.clock.now()));
    receiver = await startReceiver();
    ctx = { store: server.store, blobs: server.blobs, clock: server.clock };
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });
  const send = () => server.app.webhookSender.runNow();

  it("signs deliveries, retries after a 500, disables itself after repeated failures, and redelivers", async () => {
    const manager = await server.factories.user({ name: "Mana" });
    const member = await server.factories.user({ name: "Memo" });
    const group = await server.factories.group([manager, member], { managers: [manager] });
    const { webhook, secret } = await addWebhook(
      ctx,
      { actor: actorOf(manager) },
      {
        groupId: group.id,
        url: receiver.url,
        events: "topic.created,comment.created",
      },
    );
    assert.match(secret, /^whsec_[A-Za-z0-9+/=]+$/);
    const verifier = new Webhook(secret);

    // A new topic: one signed delivery, verified by the Standard Webhooks library.
    receiver.received.length = 0;
    const { topics } = await createTopic(ctx, actorOf(member), { groupId: group.id, title: "Build", body: "Green" });
    const topic = topics[0];
    assert.ok(topic !== undefined);
    await send();
    assert.equal(receiver.received.length, 1);
    const first = receiver.received[0];
    assert.ok(first !== undefined);
    const payload = verifier.verify(first.body, first.headers as Record<string, string>) as {
      type: string;
      data: Record<string, unknown>;
    };
    assert.equal(payload.type, "topic.created");
    const ref = { kind: "BOARD", groupId: group.id, id: topic.id } as const;
    assert.equal(payload.data.id, formatContentId(ref));
    assert.equal(payload.data.title, "Build");
    assert.equal(payload.data.text, "Green");
    assert.deepEqual(payload.data.actor, { id: `1:${member.id}`, name: "Memo" });
    assert.match(String((payload.data.links as { alternate: string }).alternate), /\/g\/1:\d+\/board\/1:\d+$/);

    // A comment answered 500: tried again after the back-off, under the same webhook-id.
    receiver.received.length = 0;
    receiver.answer([500, 500]);
    await addComment(ctx, actorOf(member), { parent: ref, text: "Red now", replyTo: undefined });
    await send();
    assert.equal(receiver.received.length, 1);
    let log = await listDeliveries(ctx, { actor: actorOf(manager) }, webhook.id);
    const failing = log.deliveries[0];
    assert.equal(failing?.status, "queued");
    assert.equal(failing.responseStatus, 500);
    assert.ok((failing.responseExcerpt ?? "").startsWith("failure 500"));
    assert.equal(failing.responseExcerpt?.length, WEBHOOK_LIMITS.responseExcerptChars);
    await send();
    assert.equal(receiver.received.length, 1, "nothing is retried before its back-off");
    server.clock.advance(MINUTE);
    await send();
    server.clock.advance(5 * MINUTE);
    await send();
    assert.equal(receiver.received.length, 3);
    const ids = new Set(receiver.received.map((request) => request.headers["webhook-id"]));
    assert.equal(ids.size, 1, "every attempt carries the same webhook-id");
    for (const request of receiver.received) {
      const headers = request.headers as Record<string, string>;
      const at = new Date(Number(headers["webhook-timestamp"]) * 1000);
      assert.equal(headers["webhook-signature"], verifier.sign(headers["webhook-id"] ?? "", at, request.body));
    }
    const comment = JSON.parse(receiver.received[2]?.body ?? "{}") as { type: string; data: Record<string, unknown> };
    assert.equal(comment.type, "comment.created");
    assert.equal(comment.data.id, formatCommentId(ref, 1));
    assert.equal(comment.data.text, "Red now");
    log = await listDeliveries(ctx, { actor: actorOf(manager) }, webhook.id);
    assert.equal(log.deliveries[0]?.status, "sent");
    assert.equal(log.deliveries[0]?.attempts, 3);

    // Ten failed attempts in a row: the webhook disables itself, its owner gets mail, nothing more is queued.
    receiver.received.length = 0;
    receiver.answer([], 500);
    for (let n = 0; n < WEBHOOK_LIMITS.disableAfterFailures - 1; n++)
      await createTopic(ctx, actorOf(member), { groupId: group.id, title: `T${n}`, body: "" });
    await send();
    assert.equal((await getWebhook(ctx, { actor: actorOf(manager) }, webhook.id)).disabledAt, null, "9 failures: on");
    await createTopic(ctx, actorOf(member), { groupId: group.id, title: "Tenth", body: "" });
    await send();
    const disabled = await getWebhook(ctx, { actor: actorOf(manager) }, webhook.id);
    assert.notEqual(disabled.disabledAt, null, "10 failures: off");
    assert.equal(receiver.received.length, WEBHOOK_LIMITS.disableAfterFailures);
    const mail = await server.store.read((tx) => tx.mailOutbox.counts());
    assert.equal(mail.queued + mail.sent, 1, "the owner is told by mail");
    await createTopic(ctx, actorOf(member), { groupId: group.id, title: "Unheard", body: "" });
    server.clock.advance(24 * 60 * MINUTE);
    await send();
    assert.equal(receiver.received.length, WEBHOOK_LIMITS.disableAfterFailures);
    await assert.rejects(redeliver(ctx, { actor: actorOf(manager) }, { webhookId: webhook.id, deliveryId: 1 }), {
      code: "WEBHOOK_DISABLED",
    });

    // Enabled again, the first delivery is redelivered: same id, same body, signed anew.
    receiver.received.length = 0;
    receiver.answer([], 200);
    server.clock.advance(Math.max(0, Date.now() - server.clock.now()));
    await setWebhookEnabled(ctx, { actor: actorOf(manager) }, { id: webhook.id, enabled: true });
    const all = await listDeliveries(ctx, { actor: actorOf(manager) }, webhook.id);
    const original = all.deliveries.at(-1);
    assert.ok(original !== undefined);
    await redeliver(ctx, { actor: actorOf(manager) }, { webhookId: webhook.id, deliveryId: original.id });
    await send();
    assert.equal(receiver.received.length, 1);
    const again = receiver.received[0];
    assert.ok(again !== undefined);
    assert.equal(again.headers["webhook-id"], first.headers["webhook-id"]);
    assert.equal(again.body, first.body);
    if (Math.abs(Date.now() - server.clock.now()) < 60_000)
      verifier.verify(again.body, again.headers as Record<string, string>);
    await removeWebhook(ctx, { actor: actorOf(manager) }, webhook.id);
  });

  it("re-checks the owner's access at send time: a member who left gets nothing more", async () => {
    const manager = await server.factories.user();
    const member = await server.factories.user();
    const group = await server.factories.group([manager, member], { managers: [manager] });
    const { webhook } = await addWebhook(ctx, { actor: actorOf(member) }, { groupId: null, url: receiver.url });
    assert.deepEqual(webhook.events, ["chat.message", "notification"]);
    receiver.received.length = 0;
    receiver.answer([], 200);
    await createTopic(ctx, actorOf(manager), { groupId: group.id, title: "Seen", body: "by the member" });
    await send();
    assert.equal(receiver.received.length, 1);
    const told = JSON.parse(receiver.received[0]?.body ?? "{}") as { type: string; data: { event: string } };
    assert.equal(told.type, "notification");
    assert.equal(told.data.event, "topic.created");
    // Queued while a member, sent after they left: skipped.
    await createTopic(ctx, actorOf(manager), { groupId: group.id, title: "Secret", body: "after leaving" });
    await leaveGroup(ctx, actorOf(member), { groupId: group.id });
    await createTopic(ctx, actorOf(manager), { groupId: group.id, title: "Later", body: "" });
    await send();
    assert.equal(receiver.received.length, 1);
    const { deliveries } = await listDeliveries(ctx, { actor: actorOf(member) }, webhook.id);
    assert.equal(deliveries.length, 2, "nothing is queued after leaving");
    assert.equal(deliveries[0]?.status, "skipped");
    assert.match(deliveries[0]?.error ?? "", /no longer a member/);
  });

  it("keeps group webhooks to the group's managers and a person's webhooks to that person", async () => {
    const manager = await server.factories.user();
    const member = await server.factories.user();
    const group = await server.factories.group([manager, member], { managers: [manager] });
    await assert.rejects(addWebhook(ctx, { actor: actorOf(member) }, { groupId: group.id, url: receiver.url }), {
      code: "MANAGER_REQUIRED",
    });
    const { webhook } = await addWebhook(ctx, { actor: actorOf(manager) }, { groupId: group.id, url: receiver.url });
    await assert.rejects(listWebhooks(ctx, { actor: actorOf(member) }, { groupId: group.id }), {
      code: "MANAGER_REQUIRED",
    });
    await assert.rejects(listDeliveries(ctx, { actor: actorOf(member) }, webhook.id), { code: "MANAGER_REQUIRED" });
    await assert.rejects(removeWebhook(ctx, { actor: actorOf(member) }, webhook.id), { code: "MANAGER_REQUIRED" });
    const own = await addWebhook(ctx, { actor: actorOf(member) }, { groupId: null, url: receiver.url });
    await assert.rejects(getWebhook(ctx, { actor: actorOf(manager) }, own.webhook.id), { code: "WEBHOOK_NOT_FOUND" });
    assert.deepEqual(
      (await listWebhooks(ctx, { actor: actorOf(manager) }, { groupId: null })).map((hook) => hook.id),
      [],
    );
    // The secret is kept sealed, never as given.
    const row = await server.store.read((tx) => tx.webhooks.find(own.webhook.id));
    assert.ok(row !== undefined && !row.secret.includes(own.secret.slice(6)));
  });

  it("holds its limits at their boundaries: address length, webhooks per group, events", async () => {
    const manager = await server.factories.user();
    const group = await server.factories.group([manager], { managers: [manager] });
    const caller = { actor: actorOf(manager) };
    const base = "http://example.com/";
    const longest = base + "a".repeat(WEBHOOK_LIMITS.urlMaxChars - base.length);
    await addWebhook(ctx, caller, { groupId: group.id, url: longest });
    await assert.rejects(addWebhook(ctx, caller, { groupId: group.id, url: `${longest}a` }), {
      code: "WEBHOOK_URL_TOO_LONG",
    });
    for (let n = 1; n < WEBHOOK_LIMITS.perOwnerMax; n++)
      await addWebhook(ctx, caller, { groupId: group.id, url: base });
    assert.equal((await listWebhooks(ctx, caller, { groupId: group.id })).length, WEBHOOK_LIMITS.perOwnerMax);
    await assert.rejects(addWebhook(ctx, caller, { groupId: group.id, url: base }), { code: "WEBHOOK_LIMIT_REACHED" });
    await assert.rejects(addWebhook(ctx, caller, { groupId: null, url: "ftp://example.com/" }), {
      code: "WEBHOOK_URL_INVALID",
    });
    await assert.rejects(addWebhook(ctx, caller, { groupId: null, url: base, events: "topic.created" }), {
      code: "WEBHOOK_EVENT_INVALID",
    });
  });
});

describeEachBackend("outgoing webhooks to private addresses", (backend) => {
  let server: TestServer;
  let receiver: Receiver;
  let ctx: ServiceContext;
  before(async () => {
    server = await startTestServer(backend);
    receiver = await startReceiver();
    ctx = { store: server.store, blobs: server.blobs, clock: server.clock };
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  it("refuses loopback addresses and names that resolve to them, unless the operator allows them", async () => {
    const manager = await server.factories.user();
    const group = await server.factories.group([manager], { managers: [manager] });
    const caller = { actor: actorOf(manager) };
    const literal = await addWebhook(ctx, caller, { groupId: group.id, url: receiver.url });
    const named = await addWebhook(ctx, caller, { groupId: group.id, url: `http://localhost:${receiver.port}/hook` });
    await createTopic(ctx, actorOf(manager), { groupId: group.id, title: "Probe", body: "" });
    await server.app.webhookSender.runNow();
    assert.equal(receiver.received.length, 0);
    for (const { webhook } of [literal, named]) {
      const { deliveries } = await listDeliveries(ctx, caller, webhook.id);
      assert.equal(deliveries[0]?.status, "queued");
      assert.match(deliveries[0]?.error ?? "", /private address/);
    }
  });
});
