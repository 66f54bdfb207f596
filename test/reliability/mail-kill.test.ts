// test-run: serial: it runs server processes delivering hundreds of messages and kills them; beside other files it would load the machine they share
// Mail survives a killed sender: a real `kairan serve` delivering a queue of messages to a slow SMTP
// relay is killed with SIGKILL mid-delivery and started again; every message arrives, and the only
// messages that arrive twice are those the killed process had claimed and not yet recorded as sent
// (each twice with the same Message-ID). Stopped with SIGTERM instead, it finishes what it is
// sending and hands back the rest: nothing arrives twice. On PostgreSQL, two server processes
// share one queue without sending any message twice (FOR UPDATE SKIP LOCKED).
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { queueMail } from "../../src/services/mail/outbox.js";
import { type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";
import { type ServerProcess, startServerProcess } from "../support/cli.js";
import { eventually } from "../support/eventually.js";
import { shortOrLong } from "../support/long.js";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.js";
import { request } from "../support/http.js";
import { parsePrometheusText } from "../support/prometheus-text.js";

/** kairan_mail_sent_total of a server started with --metrics. */
async function sentBy(server: ServerProcess): Promise<number> {
  const answer = await request(`${server.url}/metrics`);
  return parsePrometheusText(answer.text).get("kairan_mail_sent_total")?.samples[0]?.value ?? Number.NaN;
}

const MESSAGES = shortOrLong(300, 2000);
/** The relay takes this long per message: with the sender's five connections, about 100 a second. */
const RELAY_DELAY_MS = 40;

describeEachBackend("mail through a killed sender", (backend) => {
  let test: TestStore;
  let sink: SmtpSink;
  let batch = 0;
  const servers: ServerProcess[] = [];
  const serve = async (extra: readonly string[] = []) => {
    const database = test.storeConfig.kind === "postgres" ? ["--database", test.storeConfig.url] : [];
    const args = ["--port", "0", "--data", test.dataDir, "--no-demo", "--log-level", "warn", "--smtp-url", sink.url];
    const server = await startServerProcess([...args, ...database, ...extra]);
    servers.push(server);
    return server;
  };
  /** Queues `count` messages in one transaction, as a post to a large group would; returns their Message-IDs. */
  const queue = (count: number) => {
    batch += 1;
    return test.store.transaction(async (tx) => {
      const ids: string[] = [];
      for (let i = 0; i < count; i++)
        ids.push(
          await queueMail(
            tx,
            { domain: "example.com" },
            { kind: "notification", to: `member${i}@example.com`, subject: `batch ${batch} #${i}`, text: `body ${i}` },
            Date.now(),
          ),
        );
      return ids;
    });
  };
  /** Message-ID → how many times the relay received it. */
  const receivedCounts = () => {
    const counts = new Map<string, number>();
    for (const mail of sink.received) {
      const id = mail.parsed.messageId ?? "";
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  };
  const allReceived = (ids: readonly string[]) => () => {
    const counts = receivedCounts();
    return ids.every((id) => counts.has(id));
  };

  before(async () => {
    test = await openTestStore(backend);
    sink = await startSmtpSink({ delayMs: RELAY_DELAY_MS });
  });
  after(async () => {
    for (const server of servers) if (server.child.exitCode === null) await server.stop("SIGKILL");
    await sink.close();
    await test.close();
  });

  it(
    `SIGKILL mid-delivery: after a restart all ${MESSAGES} arrive, twice only those in flight`,
    { timeout: 300_000 },
    async (t) => {
      const ids = await queue(MESSAGES);
      const first = await serve();
      await eventually(
        () => sink.received.length >= MESSAGES * 0.4,
        "some delivered (not a whole number of batches)",
        120_000,
      );
      assert.equal(await first.stop("SIGKILL"), null, "killed, not exited");
      // What the killed process had claimed and not recorded as sent: the messages in flight.
      const inFlight = new Set<string>();
      for (const id of ids) {
        const row = await test.store.read((tx) => tx.mailOutbox.statusOf(id));
        if (row?.status === "queued" && row.claimed_until !== null) inFlight.add(id);
      }
      assert.ok(inFlight.size > 0, "the kill came mid-delivery");
      // On PostgreSQL the killed process's claims run out (30 s); on SQLite the restart takes them back.
      const second = await serve();
      await eventually(allReceived(ids), `all ${MESSAGES} messages received`, 120_000);
      await eventually(
        async () => (await test.store.read((tx) => tx.mailOutbox.counts())).queued === 0,
        "every row recorded",
      );
      assert.equal(await second.stop("SIGTERM"), 0);
      const counts = receivedCounts();
      const twice = ids.filter((id) => (counts.get(id) ?? 0) > 1);
      t.diagnostic(`${inFlight.size} messages in flight at the kill; ${twice.length} arrived twice`);
      for (const id of twice) {
        assert.ok(inFlight.has(id), `${id} arrived twice but was not in flight at the kill`);
        assert.equal(counts.get(id), 2, id);
        // Twice the same message (the same Date and subject too): mail clients show it once.
        const copies = sink.received.filter((mail) => mail.parsed.messageId === id);
        assert.equal(new Set(copies.map((mail) => `${mail.parsed.date?.getTime()} ${mail.parsed.subject}`)).size, 1);
      }
      assert.deepEqual(await test.store.read((tx) => tx.mailOutbox.counts()), {
        queued: 0,
        sent: MESSAGES,
        failed: 0,
      });
    },
  );

  it(
    "SIGTERM mid-delivery: the sender finishes what it sends, hands back the rest, and nothing arrives twice",
    { timeout: 300_000 },
    async () => {
      const before = sink.received.length;
      const ids = await queue(MESSAGES);
      const first = await serve();
      await eventually(() => sink.received.length >= before + MESSAGES * 0.4, "some delivered", 120_000);
      assert.equal(await first.stop("SIGTERM"), 0, "stopped cleanly");
      const claimed = await Promise.all(ids.map((id) => test.store.read((tx) => tx.mailOutbox.statusOf(id))));
      assert.deepEqual(
        claimed.filter((row) => row?.status === "queued" && row.claimed_until !== null),
        [],
        "no claim is left behind",
      );
      const second = await serve();
      await eventually(allReceived(ids), `all ${MESSAGES} messages received`, 120_000);
      await eventually(
        async () => (await test.store.read((tx) => tx.mailOutbox.counts())).queued === 0,
        "every row recorded",
      );
      assert.equal(await second.stop("SIGTERM"), 0);
      const counts = receivedCounts();
      assert.deepEqual(
        ids.filter((id) => counts.get(id) !== 1),
        [],
      );
    },
  );

  if (backend === "postgres")
    it(
      "two server processes on one database deliver 500 messages, none twice (SKIP LOCKED)",
      { timeout: 300_000 },
      async (t) => {
        const one = await serve(["--metrics"]);
        const two = await serve(["--metrics"]);
        const ids = await queue(500);
        await eventually(allReceived(ids), "all 500 messages received", 120_000);
        await eventually(
          async () => (await test.store.read((tx) => tx.mailOutbox.counts())).queued === 0,
          "every row recorded",
        );
        // Both took part: each delivered some, together each message once.
        const sent = [await sentBy(one), await sentBy(two)];
        t.diagnostic(`sent by each process: ${sent.join(" + ")}`);
        assert.ok(
          sent.every((count) => count > 0),
          sent.join(" + "),
        );
        assert.equal((sent[0] ?? 0) + (sent[1] ?? 0), 500);
        assert.equal(await one.stop("SIGTERM"), 0);
        assert.equal(await two.stop("SIGTERM"), 0);
        const counts = receivedCounts();
        assert.deepEqual(
          ids.filter((id) => counts.get(id) !== 1),
          [],
        );
      },
    );
});
