// The site's mail relay (SMTP URL) and From address saved in the database, over --smtp-url and
// --mail-from: the sender reads them with each claim (services/mail/relay-route.ts), so a change
// applies to the next message without a restart. The URL may hold the relay's password: it is
// sealed under the `smtp-url` site key, never shown back, and audit rows only say it changed.
import type { MailConfig } from "../../config/mail.js";
import type { AuditActor } from "../../domain/audit.js";
import {
  checkMailFrom,
  checkSmtpUrl,
  hasPassword,
  maskedSmtpUrl,
  userOf,
  withPassword,
} from "../../domain/mail-relay.js";
import { ValidationError } from "../../domain/errors.js";
import { hasControlCharacter } from "../../domain/text.js";
import { open, seal } from "../../auth/secret-box.js";
import type { SiteSettingRepo } from "../../store/queries/site-settings.js";
import { recordAudit } from "../audit/audit-log.js";
import type { ServiceContext } from "../context.js";
import { siteKey } from "../site-key.js";

/** What reading and saving the relay needs: the store and the clock (the command line has no more). */
export type MailRelayContext = Pick<ServiceContext, "store" | "clock">;

/** The rows of the saved relay URL (sealed) and From; SiteSettings never holds them. */
export const SMTP_URL_SETTING = "mailSmtpUrl";
export const MAIL_FROM_SETTING = "mailFrom";
/** The longest password typed apart from the URL. */
export const SMTP_PASSWORD_MAX = 500;

/** Where a value in force comes from: saved in the settings, the server's option, or the default. */
export type MailValueSource = "saved" | "option" | "default";

/** The relay and From in force, and where each comes from. */
export interface MailRelay {
  /** undefined: the outbox folder of the data directory. */
  readonly smtpUrl: string | undefined;
  readonly from: string;
  readonly smtpUrlSource: MailValueSource;
  readonly fromSource: MailValueSource;
}

/** The saved rows as read with a claim: the URL still sealed. */
export interface StoredMailRelay {
  readonly sealedUrl: string | undefined;
  readonly from: string | undefined;
}

/** What the form sends: a blank URL or From forgets the saved one; a blank password keeps the saved one. */
export interface MailRelayChange {
  readonly smtpUrl: string;
  readonly smtpPassword: string;
  readonly from: string;
}

/** The saved rows, read inside the caller's transaction (the sender's claim). */
export async function storedMailRelayIn(tx: { readonly siteSettings: SiteSettingRepo }): Promise<StoredMailRelay> {
  const rows = await tx.siteSettings.all();
  const text = (name: string): string | undefined => {
    const row = rows.find((candidate) => candidate.name === name);
    if (row === undefined) return undefined;
    try {
      const value: unknown = JSON.parse(row.value);
      return typeof value === "string" ? value : undefined;
    } catch {
      return undefined;
    }
  };
  return { sealedUrl: text(SMTP_URL_SETTING), from: text(MAIL_FROM_SETTING) };
}

/** The relay and From in force: the saved ones over the server's options. */
export async function mailRelayOf(
  ctx: MailRelayContext,
  defaults: MailConfig,
  stored: StoredMailRelay,
): Promise<MailRelay> {
  const savedUrl = stored.sealedUrl === undefined ? undefined : await openUrl(ctx, stored.sealedUrl);
  return {
    smtpUrl: savedUrl ?? defaults.smtpUrl,
    smtpUrlSource: savedUrl !== undefined ? "saved" : defaults.smtpUrl !== undefined ? "option" : "default",
    from: stored.from ?? defaults.from,
    fromSource: stored.from !== undefined ? "saved" : defaults.fromIsDefault === true ? "default" : "option",
  };
}

/** The relay and From in force, in a read of their own. */
export async function readMailRelay(ctx: MailRelayContext, defaults: MailConfig): Promise<MailRelay> {
  return mailRelayOf(ctx, defaults, await ctx.store.read((tx) => storedMailRelayIn(tx)));
}

/** The server's mail options with the relay and From in force. */
export function mailConfigOf(defaults: MailConfig, relay: MailRelay): MailConfig {
  return { ...defaults, smtpUrl: relay.smtpUrl, from: relay.from };
}

/**
 * Saves the relay URL and From (`clear`: forgets both), and writes one `settings.change` row with
 * the masked URL and the From before and after; the password is never in it.
 * @returns the relay in force afterwards
 * @throws ValidationError SETTING_INVALID (nothing changed)
 */
export async function updateMailRelay(
  ctx: MailRelayContext,
  actor: AuditActor,
  defaults: MailConfig,
  change: MailRelayChange | "clear",
): Promise<MailRelay> {
  const stored = await ctx.store.read((tx) => storedMailRelayIn(tx));
  const savedUrl = stored.sealedUrl === undefined ? undefined : await openUrl(ctx, stored.sealedUrl);
  const url = change === "clear" ? undefined : newUrl(change, savedUrl);
  const from = change === "clear" || blank(change.from) ? undefined : checkMailFrom(change.from);
  const urlChanged = url !== savedUrl;
  if (urlChanged || from !== stored.from) {
    const sealed = url === undefined ? undefined : seal(await siteKey(ctx, "smtp-url"), SMTP_URL_SETTING, url);
    await ctx.store.transaction(async (tx) => {
      const at = ctx.clock.now();
      const by = actor.userId ?? null;
      if (urlChanged) await keep(tx, SMTP_URL_SETTING, sealed, at, by);
      if (from !== stored.from) await keep(tx, MAIL_FROM_SETTING, from, at, by);
      const masked = (value: string | undefined) => (value === undefined ? "" : maskedSmtpUrl(value));
      const details = {
        // Masked: the row says the URL changed and where it points, never its password.
        ...(urlChanged ? { [SMTP_URL_SETTING]: { before: masked(savedUrl), after: masked(url), changed: true } } : {}),
        ...(from !== stored.from ? { [MAIL_FROM_SETTING]: { before: stored.from ?? "", after: from ?? "" } } : {}),
      };
      await recordAudit(tx, ctx.clock, {
        action: "settings.change",
        actor,
        target: { kind: "settings", id: "mail", label: Object.keys(details).join(", ") },
        details,
      });
    });
  }
  return readMailRelay(ctx, defaults);
}

/** Spaces only (a line break is no blank: it is refused by the check). */
function blank(value: string): boolean {
  return /^ *$/.test(value);
}

/**
 * The URL to save from the form: blank forgets it; a typed password replaces the URL's; with
 * neither, the saved password is kept when the user name is the same (the form never shows it).
 */
function newUrl(change: MailRelayChange, savedUrl: string | undefined): string | undefined {
  if (blank(change.smtpUrl)) return undefined;
  const typed = checkSmtpUrl(change.smtpUrl.replace(/^ +| +$/g, ""));
  const password = change.smtpPassword;
  if (password !== "") {
    if (password.length > SMTP_PASSWORD_MAX || hasControlCharacter(password))
      throw new ValidationError(
        "SETTING_INVALID",
        `mailSmtpPassword must be at most ${SMTP_PASSWORD_MAX} characters without control characters.`,
      );
    return checkSmtpUrl(withPassword(typed, password));
  }
  if (hasPassword(typed) || savedUrl === undefined || !hasPassword(savedUrl)) return typed;
  const user = userOf(typed);
  if (user === "" || user !== userOf(savedUrl)) return typed;
  const carried = new URL(typed);
  carried.password = new URL(savedUrl).password;
  return checkSmtpUrl(carried.href);
}

async function keep(
  tx: { readonly siteSettings: SiteSettingRepo },
  name: string,
  value: string | undefined,
  at: number,
  by: number | null,
): Promise<void> {
  if (value === undefined) await tx.siteSettings.remove(name);
  else await tx.siteSettings.put(name, JSON.stringify(value), at, by);
}

/** The saved URL in the clear; undefined when it does not open (sealed under another key): the option applies. */
async function openUrl(ctx: MailRelayContext, sealed: string): Promise<string | undefined> {
  return open(await siteKey(ctx, "smtp-url"), SMTP_URL_SETTING, sealed);
}
