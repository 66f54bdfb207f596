// Where a claimed message goes: an SMTP relay (smtp-transport.ts) or, without one, a file in the
// outbox folder of the data directory (outbox-folder.ts). The sender sees only this interface.
import type { OutboxMail } from "../../store/queries/mail-outbox.js";

/** One way out for messages. */
export interface MailTransport {
  /** `smtp`, or `outbox` (the folder). */
  readonly kind: "smtp" | "outbox";
  /** How many messages it delivers at once (the SMTP pool's connections). */
  readonly concurrency: number;
  /** Strings never to write in a log line or `last_error` (the SMTP password). */
  readonly secrets: readonly string[];
  /**
   * Delivers one message; resolves with the relay's answer (`250 ...`) or the file's path.
   * @throws the relay's refusal or the connection's failure (retry.ts sorts them)
   */
  deliver(row: OutboxMail, fromName?: string): Promise<string>;
  /** Closes pooled connections. */
  close(): void;
}
