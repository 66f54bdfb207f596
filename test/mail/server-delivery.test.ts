import assert from "node:assert/strict";
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { after, before, it } from "node:test";
import { simpleParser } from "mailparser";
import { queueMail } from "../../src/services/mail/outbox.js";
import { describeEachBackend } from "../support/backends.js";
import { eventually } from "../support/eventually.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.js";

/** Queues one message straight into the server's database, as another process would (the poll finds it). */
function queueOne(server: TestServer, subject: string): Promise<string> {
  return server.store.transaction((tx) =>
    queueMail(
      tx,
      { domain: "example.com" },
      { kind: "test", to: "carol@example.com", toName: "Carol", subject, text: "hello\nsecond line" },
      server.clock.now(),
    ),
  );
}

describeEachBackend("a server's sender", (backend) => {
  let sink: SmtpSink;
  let withSmtp: TestServer;
  let withoutSmtp: TestServer;
  before(async () => {
    sink = await startSmtpSink();
    withSmtp = await startTestServer(backend, { smtpUrl: sink.url });
    withoutSmtp = await startTestServer(backend);
  });
  after(async () => {
    await withSmtp.close();
    await withoutSmtp.close();
    await sink.close();
  });

  it("with --smtp-url delivers the outbox to the relay", async () => {
    const messageId = await queueOne(withSmtp, "through smtp");
    const mail = await sink.waitFor((received) => received.parsed.messageId === messageId);
    assert.equal(mail.parsed.subject, "through smtp");
    await eventually(
      async () => (await withSmtp.store.read((tx) => tx.mailOutbox.statusOf(messageId)))?.status === "sent",
      "the row marked sent",
    );
  });

  it("without SMTP writes each message as an .eml file into DIR/outbox and marks it sent", async () => {
    const messageId = await queueOne(withoutSmtp, "to the folder");
    const dir = join(withoutSmtp.dataDir, "outbox");
    await eventually(
      async () => (await withoutSmtp.store.read((tx) => tx.mailOutbox.statusOf(messageId)))?.status === "sent",
      "the row marked sent",
    );
    const files = (await readdir(dir)).filter((name) => name.endsWith(".eml"));
    assert.equal(files.length, 1);
    assert.match(files[0] ?? "", /^\d{8}T\d{6}Z-\d+\.eml$/);
    const raw = await readFile(join(dir, files[0] ?? ""));
    // The bytes of the message on the wire: every line ends with CRLF.
    assert.doesNotMatch(raw.toString("latin1"), /[^\r]\n/);
    const parsed = await simpleParser(raw);
    assert.equal(parsed.messageId, messageId);
    assert.equal(parsed.subject, "to the folder");
    assert.equal(parsed.text?.trim(), "hello\nsecond line");
    // No temporary file is left beside it.
    assert.deepEqual(await readdir(dir), files);
  });
});
