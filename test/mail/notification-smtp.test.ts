// Notification mail end to end: the server's mailer and sender deliver to a real SMTP peer
// (smtp-server, parsed by mailparser), and the message's own unsubscribe link works in one click.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { minutes, postComment, postTopic, runMailer, setMail } from "../support/mail-notify.js";
import { sendReply } from "../support/mail-reply.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.js";

/** The text of RFC 2047 base64 words (mailparser leaves a list's name as sent). */
const decodeWords = (text: string) =>
  text.replace(/=\?UTF-8\?B\?([^?]*)\?=\s*/g, (_whole, data: string) => Buffer.from(data, "base64").toString("utf8"));

describeEachBackend("notification mail over SMTP", (backend) => {
  let sink: SmtpSink;
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;

  before(async () => {
    sink = await startSmtpSink();
    server = await startTestServer(backend, { smtpUrl: sink.url });
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "ボブ" });
    group = await server.factories.group([alice, bob], { name: '設計チーム "α"' });
    await server.store.transaction((tx) => tx.users.update(bob.id, { lang: "ja" }));
    await setMail(server, bob.id, { mode: "each" });
  });
  after(async () => {
    await server?.close();
    await sink?.close();
  });

  it("delivers one multipart message per item, threaded, naming its group, with one-click unsubscribe", async () => {
    const topic = await postTopic(server, alice.token, group.id, "計画 <b>", "本文");
    await postComment(server, alice.token, topic.id, "コメント & <i>");
    server.clock.advance(minutes(5) + 1);
    await runMailer(server);
    const mail = await sink.waitFor((received) => received.to.includes(bob.email));
    const { parsed } = mail;
    assert.equal(parsed.subject, '[設計チーム "α"] 計画 <b>');
    assert.equal(parsed.inReplyTo, `<item-BOARD-${topic.topicId}.u-${bob.id}@localhost>`);
    assert.equal(parsed.references, `<item-BOARD-${topic.topicId}.u-${bob.id}@localhost>`);
    assert.match(parsed.messageId ?? "", /^<notification\.[A-Za-z0-9_-]+@localhost>$/);
    assert.equal(parsed.replyTo, undefined, "no reply address where no listener takes replies");
    const list = parsed.headers.get("list") as {
      id: { id: string; name: string };
      unsubscribe: { url: string };
      "unsubscribe-post": { name: string };
    };
    assert.equal(list.id.id, `group-${group.id}.localhost`);
    assert.equal(decodeWords(list.id.name), '設計チーム "α"');
    assert.equal(list["unsubscribe-post"].name, "List-Unsubscribe=One-Click");
    assert.match(mail.raw, /^Content-Type: multipart\/alternative;/m);
    assert.match(parsed.text ?? "", /Aliceさんが「計画 <b>」にコメントしました：\n\nコメント & <i>/);
    assert.match(parsed.html || "", /コメント &#38; &#60;i&#62;/);
    assert.doesNotMatch(parsed.html || "", /<i>/);

    // The provider's one-click POST, from the header as received: no session, no form token.
    const answer = await fetch(list.unsubscribe.url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    assert.equal(answer.status, 200);
    assert.deepEqual([...(await server.store.read((tx) => tx.mailSettings.groupsOff(bob.id)))], [group.id]);
    const before = sink.received.length;
    await postComment(server, alice.token, topic.id, "もう届かない");
    server.clock.advance(minutes(5) + 1);
    const pass = await runMailer(server);
    assert.equal(pass.changes, 0, "nobody left to mail");
    assert.equal(sink.received.length, before);
  });
});

describeEachBackend("notification mail answered by mail", (backend) => {
  const DOMAIN = "reply.notify.test";
  let sink: SmtpSink;
  let server: TestServer;

  before(async () => {
    sink = await startSmtpSink();
    server = await startTestServer(backend, { smtpUrl: sink.url, smtpInbound: true, mailDomain: DOMAIN });
  });
  after(async () => {
    await server?.close();
    await sink?.close();
  });

  it("carries a reply address in Reply-To; the answer becomes the recipient's comment", async () => {
    const alice = await server.factories.user({ name: "Alice", email: "alice@notify.test" });
    const bob = await server.factories.user({ name: "Bob", email: "bob@notify.test" });
    const group = await server.factories.group([alice, bob]);
    await setMail(server, bob.id, { mode: "each" });
    const topic = await postTopic(server, alice.token, group.id, "Budget", "Numbers");
    server.clock.advance(minutes(5) + 1);
    await runMailer(server);
    const mail = await sink.waitFor((received) => received.to.includes(bob.email));
    const replyTo = mail.parsed.replyTo?.value[0]?.address ?? "";
    assert.match(replyTo, /^reply\+[a-z2-7]+@reply\.notify\.test$/);
    const answer = await sendReply(server.smtpPort, {
      from: `Bob <${bob.email}>`,
      to: replyTo,
      subject: `Re: ${mail.parsed.subject ?? ""}`,
      text: `Looks right.\n\nOn Wed, Apr 1, 2026 at 9:00 AM Kairan <kairan@${DOMAIN}> wrote:\n> Numbers\n`,
    });
    assert.equal(answer.code, 250, answer.response);
    const ref = { kind: "BOARD" as const, groupId: group.id, id: topic.topicId };
    const comments = await server.store.read((tx) => tx.comments.page(ref, {}, { offset: 0, limit: 10 }));
    assert.deepEqual(
      comments.map((comment) => [comment.authorId, comment.body]),
      [[bob.id, "Looks right."]],
    );
  });
});
