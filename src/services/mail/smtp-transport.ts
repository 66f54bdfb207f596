// Delivery to the configured SMTP relay through nodemailer: pooled connections, so that thousands
// of messages go over a few connections instead of one handshake each.
import type { OutboxMail } from "../../store/queries/mail-outbox.js";
import { composeMessage, envelopeOf } from "./compose.js";
import type { MailTransport } from "./transport.js";

/** Connections to the relay at once; with a local relay five reach well over 200 messages/s (bench/mail.ts). */
const POOL_CONNECTIONS = 5;
/** Messages per connection before it is replaced (nodemailer's default is 100). */
const MESSAGES_PER_CONNECTION = 1000;

/**
 * The relay at `smtpUrl` (`smtp://user:pass@host:587`, `smtps://...`; STARTTLS when offered).
 * `pooled`: keep connections open between messages (the server's sender); otherwise one
 * connection per message (`kairan mail send-test`). Timeouts are far below nodemailer's defaults
 * (a 10-minute socket timeout would hold a claim that long): a relay that stalls is a temporary
 * failure, retried later.
 */
export function smtpTransport(smtpUrl: string, from: string, pooled: boolean): MailTransport {
  const timeouts = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };
  // nodemailer is loaded with the first message (about 15 MB of a server that never sends).
  const open = async () => {
    const { createTransport } = await import("nodemailer");
    return pooled
      ? createTransport({
          url: smtpUrl,
          pool: true,
          maxConnections: POOL_CONNECTIONS,
          maxMessages: MESSAGES_PER_CONNECTION,
          ...timeouts,
          logger: false,
        })
      : createTransport({ url: smtpUrl, ...timeouts, logger: false });
  };
  let transporter: ReturnType<typeof open> | undefined;
  return {
    kind: "smtp",
    concurrency: pooled ? POOL_CONNECTIONS : 1,
    secrets: secretsOf(smtpUrl),
    async deliver(row: OutboxMail, fromName?: string) {
      const raw = await composeMessage(row, from, fromName);
      const info = await (await (transporter ??= open())).sendMail({ envelope: envelopeOf(row, from), raw });
      return typeof info.response === "string" ? info.response : "accepted";
    },
    close() {
      void transporter?.then((made) => made.close());
    },
  };
}

/** The password of the URL, as written and decoded: masked wherever an error might repeat it. */
export function secretsOf(smtpUrl: string): string[] {
  const password = new URL(smtpUrl).password;
  if (password === "") return [];
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // Not percent-encoded as a whole: the raw form is the one to mask.
  }
  return [...new Set([password, decoded])];
}
