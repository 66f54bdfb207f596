// The bounds of the listener of replies by mail, each at its boundary: the message size (SIZE and
// the hard cap), the files of a comment, one recipient per message, the hourly replies of one
// person, the expiry of an address (on the server's clock), connections per address, refused
// recipients per connection, the idle timeout; and what is never a reply (a null sender, a
// closed account). Refusals write nothing.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { ContentRef } from "../../src/domain/item-id.js";
import { LIMITS, MAIL_REPLY_LIMITS } from "../../src/domain/limits.js";
import { setUserDisabled } from "../../src/services/account/account-admin.js";
import { createInboundMail } from "../../src/smtp/inbound.js";
import { describeEachBackend } from "../support/backends.js";
import { eventually } from "../support/eventually.js";
import type { TestUser } from "../support/factories.js";
import { type Reply, rawSmtp, replyAddress, sendReply } from "../support/mail-reply.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type Snapshotter, describeChange, openSnapshotter } from "../support/snapshot.js";

const DOMAIN = "reply.kairan.test";
const HOUR = 3_600_000;

describeEachBackend("replies by mail: limits", (backend) => {
  let server: TestServer;
  let snapshots: Snapshotter;
  let alice: TestUser;
  let topic: ContentRef;
  let port: number;

  before(async () => {
    server = await startTestServer(backend, { smtpInbound: true, mailDomain: DOMAIN });
    port = server.smtpPort ?? 0;
    snapshots = openSnapshotter(server);
    alice = await server.factories.user({ email: "alice@example.com" });
    const group = await server.factories.group([alice]);
    topic = { kind: "BOARD", groupId: group.id, id: (await server.factories.topic(group, alice)).id };
  });
  after(async () => {
    await snapshots?.close();
    await server?.close();
  });

  /** A member of the topic's group of their own (so each test's hourly count starts at 0). */
  const member = async () => {
    const user = await server.factories.user();
    await server.store.transaction((tx) =>
      tx.memberships.insertJoined({
        groupId: topic.groupId,
        userId: user.id,
        manager: false,
        notify: true,
        createdAt: server.clock.now(),
      }),
    );
    return user;
  };
  const unchanged = async <T>(work: () => Promise<T>): Promise<T> => {
    const before = await snapshots.take();
    const result = await work();
    assert.equal(describeChange(before, await snapshots.take()), "", "nothing is written");
    return result;
  };

  it("announces SIZE and refuses a larger declared size at MAIL FROM", async () => {
    const smtp = await rawSmtp(port);
    const ehlo = await smtp.command("EHLO client.example");
    assert.match(ehlo, new RegExp(`250[- ]SIZE ${MAIL_REPLY_LIMITS.messageMaxBytes}\\r\\n`));
    assert.doesNotMatch(ehlo, /AUTH|STARTTLS/);
    assert.match(
      await smtp.command(`MAIL FROM:<a@example.com> SIZE=${MAIL_REPLY_LIMITS.messageMaxBytes + 1}`),
      /^552 /,
    );
    assert.match(await smtp.command(`MAIL FROM:<a@example.com> SIZE=${MAIL_REPLY_LIMITS.messageMaxBytes}`), /^250 /);
    smtp.close();
  });

  it("refuses a message over the size limit at the end of DATA (552), having read it whole", async () => {
    const user = await member();
    const to = await replyAddress(server, DOMAIN, user.id, topic);
    const smtp = await rawSmtp(port);
    await smtp.command("EHLO client.example");
    await smtp.command(`MAIL FROM:<${user.email}>`);
    assert.match(await smtp.command(`RCPT TO:<${to}>`), /^250 /);
    assert.match(await smtp.command("DATA"), /^354 /);
    const answer = await unchanged(async () => {
      smtp.write(`From: ${user.email}\r\nTo: ${to}\r\nSubject: big\r\n\r\nHello\r\n`);
      const line = `${"x".repeat(998)}\r\n`;
      for (let sent = 0; sent <= MAIL_REPLY_LIMITS.messageMaxBytes; sent += line.length * 1000)
        smtp.write(line.repeat(1000));
      smtp.write(".\r\n");
      return smtp.reply();
    });
    assert.match(answer, /^552 /);
    assert.match(await smtp.command("QUIT"), /^221 /);
  });

  it("refuses one file over a comment's file limit (552), and takes one at it", { timeout: 120_000 }, async () => {
    const user = await member();
    const to = await replyAddress(server, DOMAIN, user.id, topic);
    const over: Reply = {
      from: user.email,
      to,
      text: "Big file",
      attachments: [{ filename: "big.bin", content: Buffer.alloc(LIMITS.fileMaxBytes + 1, 1) }],
    };
    const refused = await unchanged(() => sendReply(server.smtpPort, over));
    assert.equal(refused.code, 552, refused.response);
    assert.match(refused.response, /larger than 26214400 bytes/);
    const at = { ...over, attachments: [{ filename: "big.bin", content: Buffer.alloc(LIMITS.fileMaxBytes, 1) }] };
    assert.equal((await sendReply(server.smtpPort, at)).code, 250);
  });

  it("reads a message's text up to its limit (the quote cut away), and refuses one character more (552)", async () => {
    const user = await member();
    const to = await replyAddress(server, DOMAIN, user.id, topic);
    const reply = "Above the quote.\n\n";
    const quoteLine = `> ${"q".repeat(76)}\n`;
    const fill = MAIL_REPLY_LIMITS.bodyMaxChars - reply.length;
    const quote = quoteLine.repeat(Math.floor(fill / quoteLine.length));
    const at = `${reply}${quote}> ${"q".repeat(fill - quote.length - 3)}\n`;
    assert.equal(at.length, MAIL_REPLY_LIMITS.bodyMaxChars);
    const posted = await sendReply(server.smtpPort, { from: user.email, to, text: at });
    assert.equal(posted.code, 250, posted.response);
    const over = await unchanged(() => sendReply(server.smtpPort, { from: user.email, to, text: `${at}x` }));
    assert.equal(over.code, 552, over.response);
    assert.match(over.response, /too long to read/);
  });

  it("takes one reply address per message (452 for a second) and no null sender", async () => {
    const user = await member();
    const to = await replyAddress(server, DOMAIN, user.id, topic);
    const smtp = await rawSmtp(port);
    await smtp.command("EHLO client.example");
    assert.match(await smtp.command("MAIL FROM:<>"), /^550 .*without a sender/);
    await smtp.command(`MAIL FROM:<${user.email}>`);
    assert.match(await smtp.command(`RCPT TO:<${to}>`), /^250 /);
    assert.match(await smtp.command(`RCPT TO:<${to.toUpperCase()}>`), /^250 /, "the same address again");
    const other = await replyAddress(server, DOMAIN, alice.id, topic);
    assert.match(await smtp.command(`RCPT TO:<${other}>`), /^452 /);
    smtp.close();
  });

  it("refuses the addresses of a disabled account", async () => {
    const user = await member();
    const to = await replyAddress(server, DOMAIN, user.id, topic);
    await setUserDisabled(server, { email: user.email, disabled: true });
    const answer = await unchanged(() => sendReply(server.smtpPort, { from: user.email, to, text: "Hello" }));
    assert.equal(answer.code, 550);
    assert.match(answer.response, /account .* is closed/);
  });

  it(`takes ${MAIL_REPLY_LIMITS.messagesPerUserPerHour} replies of one person an hour, then says to try later (450)`, async () => {
    const user = await member();
    const to = await replyAddress(server, DOMAIN, user.id, topic);
    for (let i = 1; i <= MAIL_REPLY_LIMITS.messagesPerUserPerHour; i++) {
      // Naming the address twice in one message counts one message.
      const twice = i === 1 ? { envelopeTo: [to, to.toUpperCase()] } : {};
      const answer = await sendReply(server.smtpPort, { from: user.email, to, text: `Reply ${i}`, ...twice });
      assert.equal(answer.code, 250, `reply ${i}: ${answer.response}`);
    }
    const over = await unchanged(() => sendReply(server.smtpPort, { from: user.email, to, text: "One more" }));
    assert.equal(over.code, 450);
    assert.equal(over.command, "RCPT TO");
    server.clock.advance(HOUR - 1);
    assert.equal((await sendReply(server.smtpPort, { from: user.email, to, text: "Still too soon" })).code, 450);
    server.clock.advance(1);
    assert.equal((await sendReply(server.smtpPort, { from: user.email, to, text: "An hour later" })).code, 250);
  });

  it("takes an address until its expiry on the server's clock, and refuses it from then on", async () => {
    const user = await member();
    const to = await replyAddress(server, DOMAIN, user.id, topic);
    const made = server.clock.now();
    const expiry = Math.ceil((made + MAIL_REPLY_LIMITS.tokenLifetimeDays * 24 * HOUR) / HOUR) * HOUR;
    server.clock.advance(expiry - made - 1);
    assert.equal((await sendReply(server.smtpPort, { from: user.email, to, text: "Just in time" })).code, 250);
    server.clock.advance(1);
    const late = await unchanged(() => sendReply(server.smtpPort, { from: user.email, to, text: "Too late" }));
    assert.equal(late.code, 550);
    assert.match(late.response, /expired/);
  });

  it("closes a connection after too many refused recipients", async () => {
    const smtp = await rawSmtp(port);
    await smtp.command("EHLO client.example");
    await smtp.command("MAIL FROM:<a@example.com>");
    for (let i = 1; i < MAIL_REPLY_LIMITS.refusedRecipientsPerConnection; i++)
      assert.match(await smtp.command(`RCPT TO:<reply+${"a".repeat(30 + i)}@${DOMAIN}>`), /^550 /);
    assert.match(await smtp.command(`RCPT TO:<reply+guess@${DOMAIN}>`), /^421 /);
    await smtp.closed;
  });

  it(`takes ${MAIL_REPLY_LIMITS.connectionsPerAddress} connections from one address at once, not one more`, async () => {
    const open = [];
    for (let i = 0; i < MAIL_REPLY_LIMITS.connectionsPerAddress; i++) {
      const smtp = await rawSmtp(port);
      assert.match(smtp.greeting, /^220 /);
      open.push(smtp);
    }
    const extra = await rawSmtp(port);
    assert.match(extra.greeting, /^421 /);
    await extra.closed;
    open.pop()?.close();
    // The server learns of the close a moment later: a closed connection frees its place then.
    let again = await rawSmtp(port);
    await eventually(async () => {
      if (again.greeting.startsWith("220 ")) return true;
      again = await rawSmtp(port);
      return false;
    }, "a closed connection frees its place");
    for (const smtp of [...open, again]) smtp.close();
  });

  it("disconnects an idle client", async () => {
    const inbound = createInboundMail(
      {
        store: server.store,
        blobs: server.blobs,
        clock: server.clock,
        config: { host: "127.0.0.1", mail: { domain: DOMAIN, inboundPort: 0 } },
        log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      },
      1000,
      { ...MAIL_REPLY_LIMITS, idleTimeoutMs: 200 },
    );
    const idle = await rawSmtp(await inbound.listen());
    await idle.command("EHLO client.example");
    await idle.closed;
    await inbound.close();
  });
});
