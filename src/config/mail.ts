import { z } from "zod";
import { MAIL_ADDRESS, isSmtpUrl } from "../domain/mail-relay.js";

/**
 * Mail: how messages leave (SMTP, or the outbox folder of the data directory when no SMTP server is
 * configured), whom they come from, the domain of reply addresses, and the listener that receives
 * replies by mail (docs/operations.md "Mail").
 */
export interface MailConfig {
  /** `smtp://` or `smtps://` URL of the server that relays Kairan's mail; undefined: the outbox folder. */
  readonly smtpUrl: string | undefined;
  /** The From address of every message. */
  readonly from: string;
  /** Whether `from` is the default (no --mail-from): the settings page says where the From comes from. */
  readonly fromIsDefault?: boolean;
  /** The domain of reply addresses (`reply+TOKEN@DOMAIN`) and of Message-IDs. */
  readonly domain: string;
  /** Port of the inbound SMTP listener for replies; undefined: off. 0 picks a free port. */
  readonly inboundPort: number | undefined;
}

/** Command-line values for mail. */
export interface MailFlags {
  readonly smtpUrl?: string | undefined;
  readonly mailFrom?: string | undefined;
  readonly mailDomain?: string | undefined;
  readonly smtpInboundPort?: string | undefined;
}

/** Each field with its option and environment variable, for messages and --help. */
export const MAIL_SOURCES = {
  smtpUrl: { flag: "--smtp-url", env: "KAIRAN_SMTP_URL" },
  mailFrom: { flag: "--mail-from", env: "KAIRAN_MAIL_FROM" },
  mailDomain: { flag: "--mail-domain", env: "KAIRAN_MAIL_DOMAIN" },
  smtpInboundPort: { flag: "--smtp-inbound-port", env: "KAIRAN_SMTP_INBOUND_PORT" },
} as const;

/** The SMTP URL may carry a password: never echoed in a message. */
export const MAIL_SECRET_FIELDS = ["smtpUrl"] as const;

/** A host name as DNS writes it (letters, digits, hyphens, dots); no spaces, no @, no brackets. */
const DOMAIN =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** The zod fields of the mail options. */
export const mailFields = {
  smtpUrl: z
    .string()
    // The same rules as a relay URL saved in /admin/settings (domain/mail-relay.ts).
    .refine(isSmtpUrl, "must be an smtp:// or smtps:// URL")
    .optional(),
  mailFrom: z.string().regex(MAIL_ADDRESS, "must be one e-mail address such as kairan@example.com").optional(),
  mailDomain: z.string().regex(DOMAIN, "must be a domain name such as example.com").optional(),
  smtpInboundPort: z.coerce.number().int("must be an integer").min(0).max(65535, "must be 0-65535").optional(),
};

/** Raw mail values: each flag over its environment variable. */
export function rawMail(flags: MailFlags, env: NodeJS.ProcessEnv) {
  return {
    smtpUrl: flags.smtpUrl ?? env.KAIRAN_SMTP_URL,
    mailFrom: flags.mailFrom ?? env.KAIRAN_MAIL_FROM,
    mailDomain: flags.mailDomain ?? env.KAIRAN_MAIL_DOMAIN,
    smtpInboundPort: flags.smtpInboundPort ?? env.KAIRAN_SMTP_INBOUND_PORT,
  };
}

/**
 * The validated values as a MailConfig. The defaults come from the site's address: the host of the
 * public URL, else the listening host; an IP address or a bare name is no mail domain, so those
 * fall back to `localhost` (mail then only makes sense with an explicit --mail-domain, said in docs).
 */
export function toMailConfig(
  value: z.infer<z.ZodObject<typeof mailFields>>,
  site: { readonly publicUrl: string | undefined; readonly host: string },
): MailConfig {
  const siteHost = site.publicUrl === undefined ? site.host : new URL(site.publicUrl).hostname;
  const fallback =
    DOMAIN.test(siteHost) && siteHost.includes(".") && !/^[\d.]+$/.test(siteHost) ? siteHost : "localhost";
  const domain = (value.mailDomain ?? fallback).toLowerCase();
  return Object.freeze({
    smtpUrl: value.smtpUrl,
    from: value.mailFrom ?? `kairan@${domain}`,
    fromIsDefault: value.mailFrom === undefined,
    domain,
    inboundPort: value.smtpInboundPort,
  });
}
