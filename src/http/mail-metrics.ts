// Mail's figures for GET /metrics (metrics.ts): the outbox's queue, and the messages this process
// delivered or gave up on (services/mail/sender.ts).
import type * as PromClient from "prom-client";
import type { SenderTally } from "../services/mail/sender.js";

/** What the mail metrics read at scrape time. */
export interface MailMetricsSources {
  /** The process's sender, once made. */
  readonly sender: () => SenderTally | undefined;
  /** Messages waiting in the outbox (all processes': the database's count). */
  readonly queued: () => Promise<number>;
}

/** Registers `kairan_mail_queue`, `kairan_mail_sent_total` and `kairan_mail_failed_total`. */
export function registerMailMetrics(
  prom: typeof PromClient,
  registry: PromClient.Registry,
  sources: MailMetricsSources,
): void {
  new prom.Gauge({
    name: "kairan_mail_queue",
    help: "Messages of the outbox waiting for delivery (queued, retries included), in the whole database.",
    registers: [registry],
    async collect() {
      this.set(await sources.queued());
    },
  });
  const tally = (name: string, help: string, read: (sender: SenderTally) => number) => {
    let reported = 0;
    new prom.Counter({
      name,
      help,
      registers: [registry],
      collect() {
        const sender = sources.sender();
        if (sender === undefined) return;
        const now = read(sender);
        this.inc(now - reported);
        reported = now;
      },
    });
  };
  tally(
    "kairan_mail_sent_total",
    "Messages this process delivered (to the SMTP relay or the outbox folder).",
    (s) => s.sent,
  );
  tally(
    "kairan_mail_failed_total",
    "Messages this process gave up on: refused for good (5xx) or failed at the last attempt.",
    (s) => s.failed,
  );
}
