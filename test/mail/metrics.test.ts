// The mail figures of GET /metrics: the outbox's queue, and what this process sent or gave up on.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { queueMail } from "../../src/services/mail/outbox.js";
import { describeEachBackend } from "../support/backends.js";
import { eventually } from "../support/eventually.js";
import { request } from "../support/http.js";
import { parsePrometheusText } from "../support/prometheus-text.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.js";

describeEachBackend("mail metrics", (backend) => {
  let sink: SmtpSink;
  let server: TestServer;
  before(async () => {
    sink = await startSmtpSink();
    server = await startTestServer(backend, { smtpUrl: sink.url, metrics: {} });
  });
  after(async () => {
    await server.close();
    await sink.close();
  });

  const scrape = async () => {
    const answer = await request(`${server.url}/metrics`);
    assert.equal(answer.status, 200);
    const families = parsePrometheusText(answer.text);
    const value = (name: string) => families.get(name)?.samples[0]?.value;
    return {
      queue: value("kairan_mail_queue"),
      sent: value("kairan_mail_sent_total"),
      failed: value("kairan_mail_failed_total"),
    };
  };
  const queue = (subject: string) =>
    server.store.transaction((tx) =>
      queueMail(
        tx,
        { domain: "example.com" },
        { kind: "test", to: "m@example.com", subject, text: "t" },
        server.clock.now(),
      ),
    );
  const statusOf = (id: string) => server.store.read((tx) => tx.mailOutbox.statusOf(id));

  it("count messages sent and failed by this process, and the queue of the database", async () => {
    assert.deepEqual(await scrape(), { queue: 0, sent: 0, failed: 0 });
    const sent = [await queue("one"), await queue("two")];
    await eventually(
      async () => (await Promise.all(sent.map(statusOf))).every((row) => row?.status === "sent"),
      "sent",
    );
    assert.deepEqual(await scrape(), { queue: 0, sent: 2, failed: 0 });

    sink.refuseNext(1, 550);
    const refused = await queue("refused");
    await eventually(async () => (await statusOf(refused))?.status === "failed", "failed");
    assert.deepEqual(await scrape(), { queue: 0, sent: 2, failed: 1 });

    // Refused for now: it waits in the queue for its retry.
    sink.refuseNext(1, 451);
    const later = await queue("later");
    await eventually(async () => (await statusOf(later))?.attempts === 1, "tried once");
    assert.deepEqual(await scrape(), { queue: 1, sent: 2, failed: 1 });
  });
});
