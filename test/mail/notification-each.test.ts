// "Each change" notification mail: coalescing by item, who gets it, threading, list and
// unsubscribe headers, both parts, the reader's language, and one log row per write.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
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
import { runNotificationMail } from "../../src/services/mail-notify/mailer.js";
import { openStore } from "../../src/store/open.js";

describeEachBackend("notification mail: each change", (backend) => {
  let server: TestServer;
  let outbox: OutboxReader;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let group: Group;

  before(async () => {
    server = await startTestServer(backend);
    outbox = openOutbox(server);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    carol = await f.user({ name: "Carol" });
    dave = await f.user({ name: "Dave" });
    group = await f.group([alice, bob, carol, dave], { name: "Design team" });
    await setMail(server, bob.id, { mode: "each" });
    await setMail(server, carol.id, { mode: "each" });
    await server.store.transaction(async (tx) => {
      await tx.users.update(bob.id, { lang: "en" });
      await tx.users.update(carol.id, { lang: "ja" });
    });
  });
  after(async () => {
    await outbox?.close();
    await server?.close();
  });

  it("makes three changes within the window one message, and a later change another", async () => {
    const topic = await postTopic(server, alice.token, group.id, "Plan", "The first draft");
    server.clock.advance(minutes(1));
    await postComment(server, alice.token, topic.id, "A first comment");
    server.clock.advance(minutes(1));
    await postComment(server, bob.token, topic.id, "Bob's <b>bold</b> & reply");
    await runMailer(server);
    assert.deepEqual(await outbox.fresh(), [], "nothing is due before the window ends");
    server.clock.advance(minutes(3) + 1);
    const pass = await runMailer(server);
    assert.equal(pass.batches, 1);
    const first = await outbox.fresh();
    assert.deepEqual(first.map((mail) => mail.to).sort(), [bob.email, carol.email].sort(), "each-change readers only");
    const toBob = first.find((mail) => mail.to === bob.email)!;
    const toCarol = first.find((mail) => mail.to === carol.email)!;
    assert.equal(toBob.kind, "notification");
    assert.equal(toBob.subject, "[Design team] Plan");
    assert.match(toBob.text, /Alice added the topic “Plan”[\s\S]*Alice commented on “Plan”:\n\nA first comment/);
    assert.doesNotMatch(toBob.text, /Bob's/, "Bob is not told of his own comment");
    assert.match(
      toCarol.text,
      /Bobさんが「Plan」にコメントしました：\n\nBob's <b>bold<\/b> & reply/,
      "Japanese, plain text",
    );
    assert.match(toCarol.html ?? "", /Bob&#39;s &#60;b&#62;bold&#60;\/b&#62; &#38; reply/, "escaped in the HTML part");
    assert.doesNotMatch(toCarol.html ?? "", /<b>bold/);
    assert.match(toCarol.text, new RegExp(`${server.url}/g/1:${group.id}/board/1:${topic.topicId}`));

    server.clock.advance(minutes(5));
    await postComment(server, alice.token, topic.id, "After the window");
    await runMailer(server);
    assert.deepEqual(await outbox.fresh(), [], "the new change waits for its own window");
    server.clock.advance(minutes(5) + 1);
    await runMailer(server);
    const second = await outbox.fresh();
    assert.deepEqual(second.map((mail) => mail.to).sort(), [bob.email, carol.email].sort());
    const again = second.find((mail) => mail.to === carol.email)!;
    assert.doesNotMatch(again.text, /A first comment/, "only the new change");
    assert.match(again.text, /After the window/);

    // One thread per item and reader: every message answers the same id, under its own Message-ID.
    const thread = `<item-BOARD-${topic.topicId}.u-${carol.id}@localhost>`;
    for (const mail of [toCarol, again]) {
      assert.equal(mail.headers["In-Reply-To"], thread);
      assert.equal(mail.headers.References, thread);
      assert.equal(mail.headers["List-Id"], `"Design team" <group-${group.id}.localhost>`);
      assert.match(
        mail.headers["List-Unsubscribe"] ?? "",
        new RegExp(`^<${server.url}/unsubscribe/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+>$`),
      );
      assert.equal(mail.headers["List-Unsubscribe-Post"], "List-Unsubscribe=One-Click");
    }
    assert.notEqual(toCarol.messageId, again.messageId);
    assert.notEqual(toBob.headers.References, toCarol.headers.References, "a thread per reader");
  });

  it("writes each message once when two processes run their passes at the same time", async () => {
    // A second process: its own connection (its own pool on PostgreSQL) over the same database.
    const second = await openStore(server.storeConfig);
    try {
      const context = {
        store: second,
        blobs: server.blobs,
        clock: server.clock,
        config: {
          mail: { smtpUrl: undefined, from: "k@localhost", domain: "localhost", inboundPort: undefined },
          locale: "en" as const,
          timeZone: "UTC",
        },
        baseUrl: () => server.url,
      };
      const topics = [];
      for (let n = 0; n < 5; n++) topics.push(await postTopic(server, alice.token, group.id, `Race ${n}`));
      server.clock.advance(minutes(5) + 1);
      await Promise.all([
        runMailer(server),
        runNotificationMail(context),
        runMailer(server),
        runNotificationMail(context),
      ]);
      const mails = await outbox.fresh();
      const keys = mails.map((mail) => `${mail.to} ${mail.subject}`);
      assert.equal(new Set(keys).size, keys.length, `no message twice: ${keys.join(", ")}`);
      assert.equal(mails.length, 10, "five topics to Bob and Carol");
    } finally {
      await second.close();
    }
  });

  it("writes one log row per write, whatever the group's size and the readers' settings", async () => {
    const count = () =>
      server.store.read(async (tx) => (await tx.mailWork.dueItems(Number.MAX_SAFE_INTEGER, 1000)).length);
    const before = await count();
    await postTopic(server, alice.token, group.id, "Another");
    assert.equal(await count(), before + 1);
  });
});
