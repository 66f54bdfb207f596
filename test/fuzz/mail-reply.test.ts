// Property-based fuzzing of the listener of replies by mail over real SMTP: generated and broken
// MIME (headers, charsets, transfer encodings, nested and unterminated multiparts, binary bodies)
// sent with a valid reply address, and random command lines and addresses. Every answer is a
// well-formed SMTP reply, never a fault (451); a refused message changes nothing; a posted one
// adds one comment whose text holds no control character; and the listener keeps answering.
// Reproducible: the seed is fixed (KAIRAN_FUZZ_SEED overrides it).
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import fc from "fast-check";
import type { ContentRef } from "../../src/domain/item-id.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { shortOrLong } from "../support/long.js";
import { rawSmtp, replyAddress, sendReply } from "../support/mail-reply.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type Snapshotter, describeChange, openSnapshotter } from "../support/snapshot.js";

const SEED = Number(process.env.KAIRAN_FUZZ_SEED ?? 20_261_127);
const RUNS = Number(process.env.KAIRAN_FUZZ_RUNS ?? shortOrLong(40, 800));
const DOMAIN = "reply.fuzz.test";
const HOUR = 3_600_000;

const token = fc.stringMatching(/^[A-Za-z0-9-]{1,12}$/);
const anyText = fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: "binary", maxLength: 200 }));
const charset = fc.constantFrom("utf-8", "iso-2022-jp", "shift_jis", "utf-7", "x-unknown", "", '"utf-8');
const encoding = fc.constantFrom("7bit", "8bit", "base64", "quoted-printable", "binary", "x-uuencode", "");
const contentType = fc.oneof(
  fc.constantFrom("text/plain", "text/html", "application/octet-stream", "message/rfc822", "image/png"),
  fc.tuple(token, token).map(([a, b]) => `${a}/${b}`),
);

/** A leaf part: its headers and body, sometimes broken. */
const leaf = fc
  .record({ type: contentType, charset, encoding, name: fc.option(anyText), body: anyText, raw: fc.boolean() })
  .map(({ type, charset: cs, encoding: enc, name, body, raw }) => {
    const disposition = name === null ? "" : `Content-Disposition: attachment; filename="${name}"\r\n`;
    const encoded = enc === "base64" && !raw ? Buffer.from(body, "latin1").toString("base64") : body;
    return `Content-Type: ${type}; charset=${cs}\r\nContent-Transfer-Encoding: ${enc}\r\n${disposition}\r\n${encoded}`;
  });

/** A part: a leaf, or a multipart of parts whose boundary may be missing, wrong or unterminated. */
const part: fc.Arbitrary<string> = fc.letrec<{ part: string }>((tie) => ({
  part: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc
      .record({
        boundary: fc.oneof(token, fc.constant(""), anyText),
        parts: fc.array(tie("part"), { maxLength: 3 }),
        closed: fc.boolean(),
      })
      .map(({ boundary, parts, closed }) => {
        const body = parts.map((p) => `--${boundary}\r\n${p}\r\n`).join("");
        return `Content-Type: multipart/mixed; boundary="${boundary}"\r\n\r\n${body}${closed ? `--${boundary}--\r\n` : ""}`;
      }),
  ),
})).part;

describeEachBackend("fuzzing the listener of replies by mail", (backend) => {
  let server: TestServer;
  let snapshots: Snapshotter;
  let bob: TestUser;
  let topic: ContentRef;
  const tally = { messages: 0, posted: 0, refused: 0, commands: 0 };

  before(async () => {
    server = await startTestServer(backend, { smtpInbound: true, mailDomain: DOMAIN });
    snapshots = openSnapshotter(server);
    const alice = await server.factories.user({ email: "alice@example.com" });
    bob = await server.factories.user({ email: "bob@example.com" });
    const group = await server.factories.group([alice, bob]);
    topic = { kind: "BOARD", groupId: group.id, id: (await server.factories.topic(group, alice)).id };
  });
  after(async () => {
    await snapshots?.close();
    await server?.close();
  });

  it("answers every generated message with a refusal that changes nothing or one posted comment", async () => {
    const from = fc.oneof(
      fc.constant(bob.email),
      fc.constant(`"Bob" <${bob.email.toUpperCase()}>`),
      fc.constant(`${bob.email}, alice@example.com`),
      fc.constant(`Team: ${bob.email};`),
      fc.constant(`=?utf-8?B?${Buffer.from("ボブ").toString("base64")}?= <${bob.email}>`),
      anyText,
    );
    const extra = fc.array(fc.tuple(token, anyText), { maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(from, extra, part, async (sender, headers, body) => {
        server.clock.advance(HOUR); // a new hour: the hourly cap never decides here
        const to = await replyAddress(server, DOMAIN, bob.id, topic);
        const head = headers.map(([name, value]) => `X-${name}: ${value.replace(/[\r\n]/g, " ")}\r\n`).join("");
        const message = `From: ${sender.replace(/[\r\n]/g, " ")}\r\nTo: ${to}\r\nSubject: fuzz\r\n${head}${body}`;
        const before = await snapshots.take();
        const answer = await sendRaw(server.smtpPort ?? 0, bob.email, to, message);
        const change = describeChange(before, await snapshots.take());
        tally.messages += 1;
        assert.match(answer, /^\d{3} /, answer);
        assert.doesNotMatch(answer, /^451 /, `a fault: ${answer}\n${JSON.stringify(message).slice(0, 2000)}`);
        if (answer.startsWith("250 ") && !/Automatic reply/.test(answer)) {
          tally.posted += 1;
          assert.match(change, /comments/, `posted: ${change}`);
        } else {
          tally.refused += 1;
          assert.equal(change, "", `refused (${answer.trim()}) but changed: ${change}`);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    const comments = await server.store.read((tx) => tx.comments.page(topic, {}, { offset: 0, limit: 1000 }));
    // eslint-disable-next-line no-control-regex -- a posted text must hold none
    for (const comment of comments) assert.doesNotMatch(comment.body, /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
  });

  it("answers random command lines and addresses with SMTP replies, and keeps taking replies", async () => {
    const line = fc.oneof(
      fc.string({ maxLength: 300 }).map((s) => s.replace(/[\r\n]/g, "")),
      fc.string({ maxLength: 200 }).map((s) => `RCPT TO:<${s.replace(/[\r\n<>]/g, "")}@${DOMAIN}>`),
      fc.string({ maxLength: 200 }).map((s) => `RCPT TO:<reply+${s.replace(/[\r\n<>]/g, "")}@${DOMAIN}>`),
      fc.string({ maxLength: 200 }).map((s) => `MAIL FROM:<${s.replace(/[\r\n<>]/g, "")}>`),
      fc.constantFrom(
        "DATA",
        "RSET",
        "NOOP",
        "VRFY root",
        "EXPN all",
        "AUTH PLAIN AAAA",
        "STARTTLS",
        "HELP",
        "XCLIENT ADDR=1.2.3.4",
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 12 }), async (lines) => {
        const smtp = await rawSmtp(server.smtpPort ?? 0);
        await smtp.command("EHLO fuzz.example");
        await smtp.command("MAIL FROM:<fuzz@example.com>");
        for (const text of lines) {
          const reply = await smtp.command(text);
          tally.commands += 1;
          if (reply === "(closed)") break;
          assert.match(reply, /^\d{3}[ -]/, `${JSON.stringify(text)} -> ${reply}`);
          if (/^354 /.test(reply)) assert.match(await smtp.command("\r\n."), /^\d{3} /);
        }
        smtp.close();
      }),
      { seed: SEED, numRuns: RUNS },
    );
    server.clock.advance(HOUR);
    const to = await replyAddress(server, DOMAIN, bob.id, topic);
    assert.equal((await sendReply(server.smtpPort, { from: bob.email, to, text: "Still taking replies." })).code, 250);
  });

  after(() => {
    console.log(`# mail reply fuzz [${backend}]: ${JSON.stringify(tally)}`);
  });
});

/** One message over a raw SMTP session (dot-stuffed); the answer to its DATA. */
async function sendRaw(port: number, from: string, to: string, message: string): Promise<string> {
  const smtp = await rawSmtp(port);
  try {
    await smtp.command("EHLO fuzz.example");
    await smtp.command(`MAIL FROM:<${from}>`);
    const rcpt = await smtp.command(`RCPT TO:<${to}>`);
    if (!rcpt.startsWith("250 ")) return rcpt;
    const go = await smtp.command("DATA");
    if (!go.startsWith("354 ")) return go;
    const stuffed = message.replace(/\r?\n/g, "\r\n").replace(/^\./gm, "..");
    smtp.write(Buffer.from(`${stuffed}\r\n.\r\n`, "latin1"));
    return await smtp.reply();
  } finally {
    smtp.close();
  }
}
