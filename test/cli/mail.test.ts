// `kairan mail send-test` and `kairan mail outbox`, run as users run them (the built command line)
// against a real database of each engine and a real SMTP peer in this process.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { after, before, it } from "node:test";
import { SMTPServer } from "smtp-server";
import { systemClock } from "../../src/clock.js";
import { updateMailRelay } from "../../src/services/settings/mail-relay.js";
import { type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";
import { runKairanAsync } from "../support/cli.js";
import { type CliRunner, runKairanHere } from "../support/cli-in-process.js";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.js";

interface Sent {
  sent: string;
  to: string;
  messageId: string;
  via: string;
  answer?: string;
  file?: string;
}

describeEachBackend("kairan mail", (backend) => {
  let test: TestStore;
  let sink: SmtpSink;
  // Commands run in this process (milliseconds each); the first one runs the real executable, so
  // the bin's own start, exit status and output are covered once per engine.
  const mail = (args: readonly string[], run: CliRunner = runKairanHere) => {
    const where = test.storeConfig.kind === "postgres" ? ["--database", test.storeConfig.url] : [];
    return run(["mail", ...args, "--data", test.dataDir, ...where, "--log-level", "silent"]);
  };
  const counts = () => test.store.read((tx) => tx.mailOutbox.counts());
  const statusOf = (messageId: string) => test.store.read((tx) => tx.mailOutbox.statusOf(messageId));

  before(async () => {
    test = await openTestStore(backend);
    sink = await startSmtpSink();
  });
  after(async () => {
    await sink.close();
    await test.close();
  });

  it("send-test delivers through the relay at once and prints its answer", async () => {
    const run = await mail(
      ["send-test", "Ops@example.com", "--smtp-url", sink.url, "--public-url", "https://k.example.com"],
      runKairanAsync,
    );
    assert.equal(run.status, 0, run.stderr);
    const printed = JSON.parse(run.stdout) as Sent;
    assert.equal(printed.sent, "test");
    assert.equal(printed.via, sink.url);
    assert.match(printed.answer ?? "", /^250\b/);
    const received = await sink.waitFor((m) => m.parsed.messageId === printed.messageId);
    assert.deepEqual(received.to, ["ops@example.com"]);
    assert.equal(received.parsed.subject, "Kairan test message");
    assert.match(received.parsed.text ?? "", /https:\/\/k\.example\.com/);
    const row = await statusOf(printed.messageId);
    assert.equal(row?.status, "sent");
    assert.equal(row?.kind, "test");
  });

  it("send-test reports a refusal in one line with status 2 and records the message as failed", async () => {
    sink.refuseNext(1, 550);
    const run = await mail(["send-test", "ops@example.com", "--smtp-url", sink.url]);
    assert.equal(run.status, 2);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /^kairan: mail send-test: smtp:\/\/127\.0\.0\.1:\d+ did not take the message: .*550/);
    assert.equal(run.stderr.trim().split("\n").length, 1);
    assert.deepEqual(await counts(), { queued: 0, sent: 1, failed: 1 });
  });

  it("send-test never prints the relay's password, even when the relay repeats it", async () => {
    const echo = new SMTPServer({
      secure: false,
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        callback(new Error(`no such password ${auth.password ?? ""}`));
      },
    });
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", () => resolve()));
    try {
      const port = (echo.server.address() as AddressInfo).port;
      const run = await mail([
        "send-test",
        "ops@example.com",
        "--smtp-url",
        `smtp://ops:hunter2%21secret@127.0.0.1:${port}`,
      ]);
      assert.equal(run.status, 2);
      assert.match(run.stderr, /did not take the message: .*no such password \*\*\*/);
      assert.doesNotMatch(run.stderr + run.stdout, /hunter2/);
    } finally {
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    }
  });

  it("without SMTP, send-test writes the message into the outbox folder, and mail outbox lists it", async () => {
    const run = await mail(["send-test", "carol@example.com"]);
    assert.equal(run.status, 0, run.stderr);
    const printed = JSON.parse(run.stdout) as Sent;
    assert.equal(printed.via, "outbox");
    assert.ok(printed.file !== undefined && existsSync(printed.file));
    const listed = await mail(["outbox"]);
    assert.equal(listed.status, 0, listed.stderr);
    const entries = JSON.parse(listed.stdout) as {
      to: string[];
      subject: string;
      time: string;
      messageId: string;
      file: string;
    }[];
    const entry = entries.find((e) => e.messageId === printed.messageId);
    assert.deepEqual(entry?.to, ["carol@example.com"]);
    assert.equal(entry?.subject, "Kairan test message");
    assert.equal(entry?.file, printed.file);
    assert.ok(!Number.isNaN(Date.parse(entry?.time ?? "")));
    const mine = JSON.parse((await mail(["outbox", "--to", "CAROL@example.com"])).stdout) as unknown[];
    assert.equal(mine.length, 1);
    assert.deepEqual(JSON.parse((await mail(["outbox", "--to", "nobody@example.com"])).stdout), []);
  });

  it("refuses bad input in one line with status 2, writing nothing", async () => {
    const before = await counts();
    for (const [args, message] of [
      [["send-test"], /ADDRESS is required/],
      [["send-test", "not an address"], /ADDRESS must be one e-mail address/],
      [["send-test", "a@example.com\r\nBcc: b@example.com"], /ADDRESS must be one e-mail address/],
      [["send-test", "a@example.com", "b@example.com"], /unexpected argument "b@example.com"/],
      [["outbox", "--to", "x"], /--to must be one e-mail address/],
      [["send-test", "a@example.com", "--smtp-url", "http://relay"], /invalid configuration: .*--smtp-url/],
      [["nothing"], /unknown subcommand "nothing" of kairan mail/],
    ] as const) {
      const run = await mail(args);
      assert.equal(run.status, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
      assert.doesNotMatch(run.stderr, /\n\s+at /);
    }
    assert.deepEqual(await counts(), before);
  });

  it("send-test goes through the relay and From saved in /admin/settings, over --smtp-url", async () => {
    const saved = await startSmtpSink();
    const ctx = { store: test.store, clock: systemClock };
    const defaults = {
      smtpUrl: sink.url,
      from: "kairan@k.example.com",
      domain: "k.example.com",
      inboundPort: undefined,
    };
    const actor = { label: "the test" };
    try {
      await updateMailRelay(ctx, actor, defaults, { smtpUrl: saved.url, smtpPassword: "", from: "saved@example.org" });
      const run = await mail(["send-test", "ops@example.com", "--smtp-url", sink.url]);
      assert.equal(run.status, 0, run.stderr);
      const printed = JSON.parse(run.stdout) as Sent;
      assert.equal(printed.via, saved.url);
      const received = await saved.waitFor((m) => m.parsed.messageId === printed.messageId);
      assert.equal(received.from, "saved@example.org");
    } finally {
      await updateMailRelay(ctx, actor, defaults, "clear");
      await saved.close();
    }
  });
});
