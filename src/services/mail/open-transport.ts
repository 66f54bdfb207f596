import type { MailConfig } from "../../config/mail.js";
import { outboxFolder } from "./outbox-folder.js";
import { smtpTransport } from "./smtp-transport.js";
import type { MailTransport } from "./transport.js";

/**
 * The configured way out: the SMTP relay of `--smtp-url`, else the outbox folder of the data
 * directory. `pooled`: the server's long-lived sender (a command sends one message).
 */
export function openMailTransport(mail: MailConfig, dataDir: string, pooled: boolean): MailTransport {
  return mail.smtpUrl === undefined ? outboxFolder(dataDir, mail.from) : smtpTransport(mail.smtpUrl, mail.from, pooled);
}
