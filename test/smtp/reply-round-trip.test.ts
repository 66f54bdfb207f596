// A reply address's whole trip through real SMTP peers: a message carrying it in Reply-To is
// queued (as the notification mail queues it, with replyAddressFor in the same transaction),
// delivered by the server's sender to an SMTP sink, read there with mailparser, answered by a
// mail client (nodemailer) that quotes it, and the answer comes back to the server's listener as
// a comment by the recipient.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { ContentRef } from "../../src/domain/item-id.js";
import type { OutgoingMail } from "../../src/mail/message.js";
import { queueMail } from "../../src/services/mail/outbox.js";
import { replyAddressFor } from "../../src/services/mail-reply/reply-address.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { sendReply } from "../support/mail-reply.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.js";

const DOMAIN = "reply.trip.test";

describeEachBackend("a reply address's round trip through real SMTP peers", (backend) => {
  let sink: SmtpSink;
  let server: TestServer;
  let bob: TestUser;
  let topic: ContentRef;

  before(async () => {
    sink = await startSmtpSink();
    server = await startTestServer(backend, { smtpUrl: sink.url, smtpInbound: true, mailDomain: DOMAIN });
    const alice = await server.factories.user({ name: "Alice", email: "alice@example.com" });
    bob = await server.factories.user({ name: "Bob", email: "bob@example.com" });
    const group = await server.factories.group([alice, bob]);
    topic = { kind: "BOARD", groupId: group.id, id: (await server.factories.topic(group, alice)).id };
  });
  after(async () => {
    await server?.close();
    await sink?.close();
  });

  it("goes out in Reply-To and comes back as the recipient's comment", async () => {
    const ctx = { ...server, config: { mail: { domain: DOMAIN, inboundPort: server.smtpPort } } };
    const messageId = await server.store.transaction(async (tx) => {
      const replyTo = await replyAddressFor(ctx, tx, bob.id, topic);
      assert.ok(replyTo !== undefined);
      const text = "Alice commented on Budget:\n\nCan someone bring the slides?";
      const message: OutgoingMail = {
        kind: "notification",
        to: bob.email,
        subject: "Budget",
        text,
        headers: { "Reply-To": replyTo },
      };
      return queueMail(tx, ctx.config.mail, message, server.clock.now());
    });
    const received = await sink.waitFor((mail) => mail.parsed.messageId === messageId);
    const replyTo = received.parsed.replyTo?.value[0]?.address ?? "";
    assert.match(replyTo, new RegExp(`^reply\\+[a-z2-7]+@${DOMAIN.replace(/\./g, "\\.")}$`));
    const quoted = (received.parsed.text ?? "")
      .trim()
      .split("\n")
      .map((line) => `> ${line}`)
      .join("\n");
    const answer = await sendReply(server.smtpPort, {
      from: `Bob <${bob.email}>`,
      to: replyTo,
      subject: `Re: ${received.parsed.subject ?? ""}`,
      headers: { "In-Reply-To": messageId, References: messageId },
      text: `I will.\n\nOn Wed, Apr 1, 2026 at 9:00 AM Kairan <kairan@${DOMAIN}> wrote:\n${quoted}\n`,
    });
    assert.equal(answer.code, 250, answer.response);
    const comments = await server.store.read((tx) => tx.comments.page(topic, {}, { offset: 0, limit: 10 }));
    assert.deepEqual(
      comments.map((comment) => [comment.authorId, comment.body]),
      [[bob.id, "I will."]],
    );
  });
});
