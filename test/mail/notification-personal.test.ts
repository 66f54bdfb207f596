// Mail that names its reader: mentions and assignments at once, direct messages unread after a
// few minutes; nothing to someone who turned it off or lost access; names with CR/LF in headers.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Actor } from "../../src/domain/access.js";
import type { Group } from "../../src/domain/group.js";
import { removeMember } from "../../src/services/member/member-admin.js";
import { createTask, updateTask } from "../../src/services/task/task-write.js";
import { describeEachBackend } from "../support/backends.js";
import { ChatClient } from "../support/chat.js";
import type { TestUser } from "../support/factories.js";
import {
  type OutboxReader,
  minutes,
  openOutbox,
  postComment,
  postTopic,
  runMailer,
  setMail,
} from "../support/mail-notify.js";
import { type TestServer, startTestServer } from "../support/server.js";

const actorOf = (user: TestUser): Actor => ({
  user,
  app: { id: 0, name: "test", consumerKey: "test", accessLevel: "Z" },
});

describeEachBackend("notification mail: mentions, assignments, direct messages", (backend) => {
  let server: TestServer;
  let outbox: OutboxReader;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let group: Group;

  before(async () => {
    server = await startTestServer(backend, { locale: "en" });
    outbox = openOutbox(server);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    carol = await f.user({ name: "Carol" });
    group = await f.group([alice, bob, carol], { name: "Ops" });
  });
  after(async () => {
    await outbox?.close();
    await server?.close();
  });

  it("mails a mention at once, to the person named, whatever their mode (the default: a digest)", async () => {
    const topic = await postTopic(server, alice.token, group.id, "Outage");
    await postComment(server, alice.token, topic.id, "@Bob can you look at this?");
    const pass = await runMailer(server);
    assert.equal(pass.personal, 1);
    const [mail, ...rest] = await outbox.fresh();
    assert.equal(rest.length, 0, "only Bob: Carol was not named, and her default is the digest");
    assert.equal(mail?.to, bob.email);
    assert.equal(mail?.subject, "[Ops] Outage");
    assert.match(mail?.text ?? "", /^Alice mentioned you in “Outage”:\n\n@Bob can you look at this\?/);
    assert.match(mail?.text ?? "", /#comment-1/);
    assert.equal(mail?.headers["In-Reply-To"], `<item-BOARD-${topic.topicId}.u-${bob.id}@localhost>`);
    assert.equal(mail?.headers["List-Id"], `"Ops" <group-${group.id}.localhost>`);
    // The coalesced message of the item later leaves out what the mention told already.
    await setMail(server, bob.id, { mode: "each" });
    await postComment(server, carol.token, topic.id, "Me too");
    server.clock.advance(minutes(5) + 1);
    await runMailer(server);
    const later = await outbox.fresh();
    assert.deepEqual(
      later.map((m) => m.to),
      [bob.email],
    );
    assert.doesNotMatch(later[0]?.text ?? "", /can you look/);
    assert.match(later[0]?.text ?? "", /Carol commented on “Outage”:\n\nMe too/);
    await setMail(server, bob.id, {});
  });

  it("mails an assignment at once, and not one to oneself", async () => {
    const task = await createTask(server, actorOf(alice), {
      groupId: group.id,
      draft: {
        title: "Rotate keys",
        body: "Before Friday",
        assigneeId: carol.id,
        due: null,
        priority: "B",
        status: "NOT_STARTED",
        folderId: null,
      },
    });
    await createTask(server, actorOf(carol), {
      groupId: group.id,
      draft: {
        title: "Mine",
        body: "",
        assigneeId: carol.id,
        due: null,
        priority: "B",
        status: "NOT_STARTED",
        folderId: null,
      },
    });
    await runMailer(server);
    const [mail, ...rest] = await outbox.fresh();
    assert.equal(rest.length, 0);
    assert.equal(mail?.to, carol.email);
    assert.match(mail?.text ?? "", /^Alice assigned you the task “Rotate keys”:\n\nBefore Friday/);
    assert.match(mail?.text ?? "", new RegExp(`/g/1:${group.id}/tasks/1:${task.id}`));
    // Given to Bob later: Bob is told, Carol is not told again.
    await updateTask(server, actorOf(alice), {
      ref: { kind: "TASK", groupId: group.id, id: task.id },
      change: { ...task, body: task.body, assigneeId: bob.id, due: null, folderId: null },
    });
    await runMailer(server);
    assert.deepEqual(
      (await outbox.fresh()).map((m) => m.to),
      [bob.email],
    );
  });

  it("mails nothing to someone who turned personal mail off, or the group's mail", async () => {
    await setMail(server, bob.id, { personal: false });
    await server.store.transaction((tx) => tx.mailSettings.setGroupOff(carol.id, group.id, true, server.clock.now()));
    const topic = await postTopic(server, alice.token, group.id, "Quiet");
    await postComment(server, alice.token, topic.id, "@Bob @Carol ping");
    await runMailer(server);
    assert.deepEqual(await outbox.fresh(), []);
    await setMail(server, bob.id, {});
    await server.store.transaction((tx) => tx.mailSettings.setGroupOff(carol.id, group.id, false, server.clock.now()));
  });

  it("mails nothing about an item to someone who lost access before the mail was made", async () => {
    const dave = await server.factories.user({ name: "Dave" });
    await server.store.transaction((tx) =>
      tx.memberships.insertJoined({
        groupId: group.id,
        userId: dave.id,
        manager: false,
        notify: true,
        createdAt: server.clock.now(),
      }),
    );
    await setMail(server, dave.id, { mode: "each" });
    const topic = await postTopic(server, alice.token, group.id, "Secret plan");
    await postComment(server, alice.token, topic.id, "@Dave you are in");
    await removeMember(server, { groupId: group.id, email: dave.email });
    server.clock.advance(minutes(5) + 1);
    await runMailer(server);
    const mails = await outbox.fresh();
    assert.ok(
      mails.every((mail) => mail.to !== dave.email),
      "neither the mention nor the change",
    );
  });

  it("mails a direct message still unread after five minutes, not one read before", async () => {
    const chat = new ChatClient(server);
    const room = await chat.direct(alice, bob);
    await chat.say(alice, room, "Lunch at noon?");
    await chat.say(alice, room, "Or at one &amp; later");
    await runMailer(server);
    server.clock.advance(minutes(4));
    await runMailer(server);
    assert.deepEqual(await outbox.fresh(), [], "not before five minutes");
    server.clock.advance(minutes(1));
    await runMailer(server);
    const [mail, ...rest] = await outbox.fresh();
    assert.equal(rest.length, 0, "both messages in one mail, to Bob only");
    assert.equal(mail?.to, bob.email);
    assert.equal(mail?.subject, "Message from Alice");
    assert.match(
      mail?.text ?? "",
      /Alice sent you a message:\n\nLunch at noon\?\n\nAlice sent you a message:\n\nOr at one & later/,
    );
    assert.equal(mail?.headers["List-Id"], undefined, "a conversation is no list");
    assert.equal(mail?.headers["In-Reply-To"], `<item-CHAT-${room}.u-${bob.id}@localhost>`);
    // Read in time: no mail.
    await chat.say(bob, room, "Sure");
    assert.equal((await chat.notifications(alice, "", [room])).status, 200);
    server.clock.advance(minutes(6));
    await runMailer(server);
    assert.deepEqual(await outbox.fresh(), []);
  });

  it("keeps names and titles with CR/LF on one header line (no header injection)", async () => {
    const evil = await server.factories.user({ name: "Eve\r\nBcc: victim@example.com" });
    const hostile = await server.factories.group([alice, evil], { name: "Team\r\nBcc: all@example.com\r\n\r\n<x>" });
    await setMail(server, alice.id, { mode: "each" });
    const topic = await postTopic(server, evil.token, hostile.id, "Hi\nX-Injected: yes");
    await postComment(server, evil.token, topic.id, "@Alice hello");
    server.clock.advance(minutes(5) + 1);
    await runMailer(server);
    const mails = await outbox.fresh();
    assert.equal(mails.length, 2, "the mention and the change");
    for (const mail of mails) {
      assert.doesNotMatch(mail.subject, /[\r\n]/);
      for (const [name, value] of Object.entries(mail.headers)) assert.doesNotMatch(value, /[\r\n]/, name);
      assert.equal(mail.headers["List-Id"], `"Team Bcc: all@example.com <x>" <group-${hostile.id}.localhost>`);
      assert.equal(mail.headers.Bcc, undefined);
      assert.equal(mail.headers["X-Injected"], undefined);
    }
    await setMail(server, alice.id, {});
  });
});
