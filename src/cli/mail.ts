import { loadConfig } from "../config/config.js";
import { isPlainAddress } from "../mail/message.js";
import { openMailTransport } from "../services/mail/open-transport.js";
import { listOutbox } from "../services/mail/outbox-list.js";
import { MailDeliveryError, sendTestMail } from "../services/mail/send-test.js";
import { mailConfigOf, readMailRelay } from "../services/settings/mail-relay.js";
import { type CommandGroup, type Values, commandGroup, optional } from "./admin.js";
import { CommandError, UsageError, configFlags } from "./options.js";

/** An address argument or option. @throws UsageError */
function address(text: string | undefined, what: string): string {
  if (text === undefined) throw new UsageError(`${what} is required`);
  if (!isPlainAddress(text))
    throw new UsageError(`${what} must be one e-mail address such as bob@example.com (got "${text.slice(0, 60)}")`);
  return text;
}

/** The relay as the operator may see it: scheme, host and port, never the user or password. */
function relayName(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  return `${url.protocol}//${url.host}`;
}

/** `kairan mail outbox`, `kairan mail send-test`. */
export const MAIL_COMMAND: CommandGroup = commandGroup("mail", "list the outbox folder, send a test message", {
  outbox: {
    summary: "list the messages written to the outbox folder DIR/outbox (without --smtp-url), oldest first",
    usage: "[--to ADDRESS]",
    options: { to: { type: "string" } },
    async run(values: Values, _positionals, _context, io) {
      const to = optional(values, "to");
      const config = loadConfig(configFlags(values), io.env);
      return listOutbox(config.dataDir, to === undefined ? undefined : address(to, "--to"));
    },
  },
  "send-test": {
    summary: "send a test message now through the configured relay (or into the outbox folder) and show the answer",
    uses: "mail",
    usage: "ADDRESS",
    positionals: 1,
    options: {},
    async run(values, positionals, context, io) {
      const to = address(positionals[0], "ADDRESS");
      const config = loadConfig(configFlags(values), io.env);
      // The relay and From the server uses: those saved in /admin/settings over the options.
      const mail = mailConfigOf(config.mail, await readMailRelay(context, config.mail));
      const transport = openMailTransport(mail, config.dataDir, false);
      const via = mail.smtpUrl === undefined ? "outbox" : relayName(mail.smtpUrl);
      const site = config.publicUrl ?? `http://${config.host}:${config.port}`;
      try {
        const { messageId, answer } = await sendTestMail(context, mail, transport, to, site);
        // The relay's answer, or (the outbox folder) the file written.
        return { sent: "test", to, messageId, via, ...(transport.kind === "smtp" ? { answer } : { file: answer }) };
      } catch (error) {
        if (error instanceof MailDeliveryError)
          throw new CommandError(`mail send-test: ${via} did not take the message: ${error.reason}`);
        throw error;
      } finally {
        transport.close();
      }
    },
  },
});
