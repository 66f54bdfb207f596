import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, before, it } from "node:test";
import { SMTPServer } from "smtp-server";
import type { OutgoingMail } from "../../src/mail/message.js";
import { COMMAND_LINE_ACTOR } from "../../src/domain/audit.js";
import { queueMail, queueMails } from "../../src/services/mail/outbox.js";
import { updateSiteSettings } from "../../src/services/settings/site-settings.js";
import { MAX_ATTEMPTS, retryDelayMs } from "../../src/services/mail/retry.js";
import { KEEP_FAILED_MS, KEEP_SENT_MS, MailSender, type SenderOptions } from "../../src/services/mail/sender.js";
import { smtpTransport } from "../../src/services/mail/smtp-transport.js";
import { wakingOnMail } from "../../src/services/mail/wake.js";
import { openStore } from "../../src/store/open.js";
import type { Store } from "../../src/store/store.js";
import { type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";
import { TestClock } from "../support/clock.js";
import { eventually } from "../support/eventually.js";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.js";

const FROM = "kairan@example.com";
const SETTING_DEFAULTS = { locale: "en", timeZone: "UTC", allowSignup: false } as const;
/** No poll within a test: whatever is sent was sent because a commit woke the sender. */
const NO_POLL: SenderOptions = { pollMs: 3_600_000 };

describeEachBackend("the mail sender over SMTP", (backend) => {
  let test: TestStore;
  let sink: SmtpSink;
  const clock = new TestClock();
  const logged: string[] = [];
  const log = {
    warn: (fields: Record<string, unknown>, message: string) => logged.push(`${message} ${JSON.stringify(fields)}`),
  };
  let n = 0;

  before(async () => {
    test = await openTestStore(backend);
    sink = await startSmtpSink();
  });
  after(async () => {
    await sink.close();
    await test.close();
  });

  /** A sender over `store` with its own pool to the sink; the store it wakes through. */
  function sender(options: SenderOptions = NO_POLL, store: Store = test.store) {
    const mailSender = new MailSender({ store, clock }, smtpTransport(sink.url, FROM, true), log, options);
    mailSender.start();
    return { mailSender, store: wakingOnMail(store, () => mailSender.wake()) };
  }

  const queue = (store: Store, mail: Partial<OutgoingMail> = {}) =>
    store.transaction((tx) =>
      queueMail(
        tx,
        { domain: "example.com" },
        { kind: "test", to: "bob@example.com", subject: `message ${++n}`, text: `body ${n}`, ...mail },
        clock.now(),
      ),
    );
  const status = (messageId: string) => test.store.read((tx) => tx.mailOutbox.statusOf(messageId));
  const byId = (messageId: string) => sink.received.filter((mail) => mail.parsed.messageId === messageId);

  it("delivers a message once its transaction commits: the stored Message-ID, From, To with the name, headers, text and HTML", async () => {
    const { mailSender, store } = sender();
    try {
      const messageId = await queue(store, {
        toName: "Bob 山田",
        subject: "件名 subject",
        text: "plain body",
        html: "<p>html body</p>",
        headers: { "List-Id": "Team <team.example.com>" },
      });
      const mail = await sink.waitFor((received) => received.parsed.messageId === messageId);
      assert.deepEqual(mail.to, ["bob@example.com"]);
      assert.equal(mail.from, FROM);
      assert.deepEqual(mail.parsed.from?.value[0], { address: FROM, name: "Kairan" }, "named after the site");
      assert.deepEqual(mail.parsed.to && !Array.isArray(mail.parsed.to) ? mail.parsed.to.value[0] : undefined, {
        address: "bob@example.com",
        name: "Bob 山田",
      });
      assert.equal(mail.parsed.subject, "件名 subject");
      assert.equal(mail.parsed.text?.trim(), "plain body");
      assert.equal(mail.parsed.html, "<p>html body</p>");
      assert.match(mail.raw, /^List-Id: Team <team.example.com>\r$/im);
      assert.match(mail.raw, /^Content-Type: multipart\/alternative/im);
      await eventuallyEqual(async () => (await status(messageId))?.status, "sent");
      const row = await status(messageId);
      assert.equal(row?.attempts, 1);
      assert.equal(row?.sent_at, clock.now());
    } finally {
      await mailSender.stop();
    }
  });

  it("names its From after the site's name as the settings say it at the claim", async () => {
    const settings = { store: test.store, blobs: undefined as never, clock, config: SETTING_DEFAULTS };
    await updateSiteSettings(settings, COMMAND_LINE_ACTOR, { siteName: 'Équipe "Nord" <ops>' });
    const { mailSender, store } = sender();
    try {
      const messageId = await queue(store);
      const mail = await sink.waitFor((received) => received.parsed.messageId === messageId);
      assert.deepEqual(mail.parsed.from?.value[0], { address: FROM, name: 'Équipe "Nord" <ops>' });
      assert.equal(mail.from, FROM, "the envelope is the address alone");
    } finally {
      await mailSender.stop();
      await updateSiteSettings(settings, COMMAND_LINE_ACTOR, { siteName: "Kairan" });
    }
  });

  it("is woken by queueMails too", async () => {
    const { mailSender, store } = sender();
    try {
      const ids = await store.transaction((tx) =>
        queueMails(
          tx,
          { domain: "example.com" },
          [1, 2, 3].map((i) => ({ kind: "test" as const, to: `w${i}@example.com`, subject: "many", text: "t" })),
          clock.now(),
        ),
      );
      for (const id of ids) await sink.waitFor((mail) => mail.parsed.messageId === id);
    } finally {
      await mailSender.stop();
    }
  });

  it("sends nothing for a transaction that rolled back", async () => {
    const { mailSender, store } = sender();
    try {
      let lost = "";
      await assert.rejects(
        store.transaction(async (tx) => {
          lost = await queueMail(
            tx,
            { domain: "example.com" },
            { kind: "test", to: "a@example.com", subject: "lost", text: "t" },
            clock.now(),
          );
          throw new Error("rolled back");
        }),
        /rolled back/,
      );
      const kept = await queue(store);
      await sink.waitFor((mail) => mail.parsed.messageId === kept);
      assert.equal(byId(lost).length, 0);
      assert.equal(await status(lost), undefined);
    } finally {
      await mailSender.stop();
    }
  });

  it("retries a message the relay refused with 451 after the back-off, counting attempts", async () => {
    const { mailSender, store } = sender();
    try {
      sink.refuseNext(1, 451);
      const messageId = await queue(store);
      await eventuallyEqual(async () => (await status(messageId))?.attempts, 1);
      const row = await test.store.read((tx) => tx.mailOutbox.statusOf(messageId));
      assert.equal(row?.status, "queued");
      assert.equal(byId(messageId).length, 0);
      const next = await test.store.read((tx) => tx.mailOutbox.nextAttemptAt(clock.now()));
      assert.equal(next, clock.now() + retryDelayMs(1));
      // Not due yet: a wake sends nothing.
      mailSender.wake();
      clock.advance(retryDelayMs(1));
      mailSender.wake();
      await sink.waitFor((mail) => mail.parsed.messageId === messageId);
      await eventuallyEqual(async () => (await status(messageId))?.status, "sent");
      assert.equal((await status(messageId))?.attempts, 2);
      assert.ok(logged.some((line) => line.includes("will retry") && line.includes(messageId) && line.includes("451")));
    } finally {
      await mailSender.stop();
    }
  });

  it("fails a message the relay refused with 550 at once, without retrying", async () => {
    const { mailSender, store } = sender();
    try {
      sink.refuseNext(1, 550);
      const before = mailSender.failed;
      const messageId = await queue(store);
      await eventuallyEqual(async () => (await status(messageId))?.status, "failed");
      assert.equal((await status(messageId))?.attempts, 1);
      assert.equal(mailSender.failed, before + 1);
      clock.advance(retryDelayMs(MAX_ATTEMPTS));
      const kept = await queue(store);
      await sink.waitFor((mail) => mail.parsed.messageId === kept);
      assert.equal(byId(messageId).length, 0);
    } finally {
      await mailSender.stop();
    }
  });

  it("gives up after the last attempt, each wait the bounded back-off", async () => {
    const { mailSender, store } = sender();
    try {
      sink.refuseNext(MAX_ATTEMPTS, 421);
      const messageId = await queue(store);
      for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
        await eventuallyEqual(async () => (await status(messageId))?.attempts, attempt);
        const next = await test.store.read((tx) => tx.mailOutbox.nextAttemptAt(clock.now()));
        assert.equal(next, clock.now() + retryDelayMs(attempt));
        clock.advance(retryDelayMs(attempt));
        mailSender.wake();
      }
      await eventuallyEqual(async () => (await status(messageId))?.status, "failed");
      assert.equal((await status(messageId))?.attempts, MAX_ATTEMPTS);
      assert.equal(byId(messageId).length, 0);
    } finally {
      sink.refuseNext(0, 451);
      await mailSender.stop();
    }
  });

  it("logs a failed delivery with its Message-ID and reason, never the relay's password nor the message's body", async () => {
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
    const port = (echo.server.address() as AddressInfo).port;
    const transport = smtpTransport(`smtp://ops:s3cret%2Fpw@127.0.0.1:${port}`, FROM, true);
    const mailSender = new MailSender({ store: test.store, clock }, transport, log, NO_POLL);
    mailSender.start();
    try {
      const store = wakingOnMail(test.store, () => mailSender.wake());
      const messageId = await queue(store, { text: "the secret plan", html: "<p>the secret plan</p>" });
      await eventuallyEqual(async () => (await status(messageId))?.attempts, 1);
      const line = logged.find((entry) => entry.includes(messageId));
      assert.match(line ?? "", /will retry.*no such password \*\*\*/);
      assert.doesNotMatch(logged.join("\n"), /s3cret|secret plan/);
      assert.match((await status(messageId))?.last_error ?? "", /no such password \*\*\*$/);
    } finally {
      await mailSender.stop();
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    }
  });

  it("deletes sent messages after a month and failed ones after three, hourly, never a queued one", async () => {
    const { mailSender, store } = sender();
    try {
      const at = (ago: number) => (mail: Partial<OutgoingMail>) =>
        store.transaction((tx) =>
          queueMail(
            tx,
            { domain: "example.com" },
            { kind: "test", to: "old@example.com", subject: "old", text: "t", ...mail },
            clock.now() - ago,
          ),
        );
      sink.refuseNext(1, 550);
      const oldFailed = await at(KEEP_FAILED_MS + 1)({});
      await eventuallyEqual(async () => (await status(oldFailed))?.status, "failed");
      sink.refuseNext(1, 550);
      const keptFailed = await at(KEEP_FAILED_MS - 7_200_000)({});
      await eventuallyEqual(async () => (await status(keptFailed))?.status, "failed");
      const oldSent = await at(KEEP_SENT_MS + 1)({});
      const keptSent = await at(KEEP_SENT_MS - 7_200_000)({});
      await eventuallyEqual(async () => (await status(oldSent))?.status, "sent");
      await eventuallyEqual(async () => (await status(keptSent))?.status, "sent");
      // Refused for now (at its first attempt and at its retry within the hour): it stays queued, however old.
      sink.refuseNext(2, 451);
      const queued = await at(KEEP_FAILED_MS * 2)({});
      await eventuallyEqual(async () => (await status(queued))?.attempts, 1);
      // Within the hour since the last pruning: nothing goes.
      mailSender.wake();
      assert.equal((await status(oldSent))?.status, "sent");
      clock.advance(3_600_000);
      mailSender.wake();
      await eventually(async () => (await status(oldSent)) === undefined, "the old sent message deleted");
      assert.equal(await status(oldFailed), undefined);
      assert.equal((await status(keptSent))?.status, "sent");
      assert.equal((await status(keptFailed))?.status, "failed");
      assert.equal((await status(queued))?.status, "queued");
    } finally {
      await mailSender.stop();
    }
  });

  it("two senders over two connections deliver every message once (SKIP LOCKED on PostgreSQL)", async () => {
    const second = await openStore(test.storeConfig);
    const one = sender({ ...NO_POLL, batchSize: 20 });
    const two = sender({ ...NO_POLL, batchSize: 20 }, second);
    try {
      const ids = await test.store.transaction(async (tx) => {
        const made: string[] = [];
        for (let i = 0; i < 300; i++)
          made.push(
            await queueMail(
              tx,
              { domain: "example.com" },
              { kind: "test", to: `u${i}@example.com`, subject: "many", text: "t" },
              clock.now(),
            ),
          );
        return made;
      });
      one.mailSender.wake();
      two.mailSender.wake();
      await eventually(() => {
        const seen = new Set(sink.received.map((mail) => mail.parsed.messageId));
        return ids.every((id) => seen.has(id));
      }, "every message received");
      await one.mailSender.stop();
      await two.mailSender.stop();
      for (const id of ids) assert.equal(byId(id).length, 1, id);
      assert.ok(one.mailSender.sent > 0 && two.mailSender.sent > 0, `${one.mailSender.sent} + ${two.mailSender.sent}`);
    } finally {
      await one.mailSender.stop();
      await two.mailSender.stop();
      await second.close();
    }
  });

  it("on stop, finishes what it is sending and releases the rest of its claim", async () => {
    const { mailSender, store } = sender({ ...NO_POLL, batchSize: 50 });
    sink.setDelay(100);
    try {
      const first = sink.received.length;
      const ids = await store.transaction(async (tx) => {
        const made: string[] = [];
        for (let i = 0; i < 40; i++)
          made.push(
            await queueMail(
              tx,
              { domain: "example.com" },
              { kind: "test", to: `s${i}@example.com`, subject: "stop", text: "t" },
              clock.now(),
            ),
          );
        return made;
      });
      await sink.waitForCount(first + 1);
      await mailSender.stop();
      const rows = await Promise.all(ids.map(status));
      const sent = rows.filter((row) => row?.status === "sent").length;
      assert.ok(sent > 0 && sent < ids.length, `${sent} sent`);
      for (const row of rows) assert.ok(row?.status === "sent" || row?.status === "queued");
      // Nothing stays claimed: another sender takes the rest at once.
      const claimed = await test.store.transaction((tx) =>
        tx.mailOutbox.claimDue(clock.now(), clock.now() + 1000, 100),
      );
      assert.equal(claimed.length, ids.length - sent);
      await test.store.transaction((tx) => tx.mailOutbox.releaseClaims(claimed.map((row) => row.id)));
    } finally {
      sink.setDelay(0);
      await mailSender.stop();
    }
  });
});

/** Waits until `read` gives `expected` (the sender works after the call that woke it returned). */
function eventuallyEqual<T>(read: () => Promise<T>, expected: T): Promise<void> {
  return eventually(async () => (await read()) === expected, `the value ${String(expected)}`);
}
