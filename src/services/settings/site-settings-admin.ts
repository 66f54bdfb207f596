// The site's settings and the mail check as an administrator does them in the browser: the role
// checked first, the audit row written by the change itself (or a `refused` row when it is not).
import type { MailConfig } from "../../config/mail.js";
import type { SiteSettings } from "../../domain/site-settings.js";
import { type Administrator, refusalLogged, requireAdministrator } from "../account/site-admin.js";
import { recordAudit, recordRefusal } from "../audit/audit-log.js";
import { auditRefusals } from "../audit/refusal.js";
import type { ServiceContext } from "../context.js";
import { openMailTransport } from "../mail/open-transport.js";
import { MailDeliveryError, type TestMailResult, sendTestMail } from "../mail/send-test.js";
import { type MailRelay, type MailRelayChange, mailConfigOf, readMailRelay, updateMailRelay } from "./mail-relay.js";
import { type SettingsContext, readClientSecret, readSiteSettings, updateSiteSettings } from "./site-settings.js";

/** The settings for the administration's form: whether a client secret is saved, never the secret. */
export type AdminSettingsView = SiteSettings & { readonly oidcClientSecretSaved: boolean };

/**
 * The settings in force, for the administration's form.
 * @throws ForbiddenError ADMIN_REQUIRED
 */
export async function readSettingsAsAdmin(ctx: SettingsContext, by: Administrator): Promise<AdminSettingsView> {
  await ctx.store.read((tx) => requireAdministrator(tx, by));
  const settings = await readSiteSettings(ctx);
  return { ...settings, oidcClientSecretSaved: (await readClientSecret(ctx)) !== undefined };
}

/**
 * Changes settings as updateSiteSettings does, after checking the role; a refused change writes
 * a `refused` row.
 * @throws ForbiddenError ADMIN_REQUIRED; ValidationError SETTING_UNKNOWN, SETTING_INVALID
 */
export async function changeSettingsAsAdmin(
  ctx: SettingsContext,
  by: Administrator,
  changes: Readonly<Record<string, unknown>>,
): Promise<SiteSettings> {
  await refusalLogged(ctx, by, "settings.change", async () => undefined);
  return auditRefusals(ctx, { action: "settings.change", actor: by.audit }, () =>
    updateSiteSettings(ctx, by.audit, changes),
  );
}

/**
 * The relay and From in force and where each comes from, for the administration's form.
 * @throws ForbiddenError ADMIN_REQUIRED
 */
export async function readMailRelayAsAdmin(
  ctx: ServiceContext,
  by: Administrator,
  defaults: MailConfig,
): Promise<MailRelay> {
  await ctx.store.read((tx) => requireAdministrator(tx, by));
  return readMailRelay(ctx, defaults);
}

/**
 * Saves (or, with `clear`, forgets) the relay and From as updateMailRelay does, after checking the
 * role; a refused change writes a `refused` row.
 * @throws ForbiddenError ADMIN_REQUIRED; ValidationError SETTING_INVALID
 */
export async function changeMailRelayAsAdmin(
  ctx: ServiceContext,
  by: Administrator,
  defaults: MailConfig,
  change: MailRelayChange | "clear",
): Promise<MailRelay> {
  await refusalLogged(ctx, by, "settings.change", async () => undefined);
  return auditRefusals(ctx, { action: "settings.change", actor: by.audit }, () =>
    updateMailRelay(ctx, by.audit, defaults, change),
  );
}

/**
 * Sends a test message to `to` now (through SMTP, or into the outbox folder) and writes a
 * `mail.send-test` row with what became of it; a relay's refusal is written too, and thrown.
 * @throws ForbiddenError ADMIN_REQUIRED; MailDeliveryError
 */
export async function sendTestMailAsAdmin(
  ctx: ServiceContext,
  by: Administrator,
  mail: { readonly config: MailConfig; readonly dataDir: string; readonly siteUrl: string },
  to: string,
): Promise<TestMailResult> {
  await refusalLogged(ctx, by, "mail.send-test", async () => undefined);
  // Through the relay and From in force: the saved ones over the options.
  const config = mailConfigOf(mail.config, await readMailRelay(ctx, mail.config));
  const transport = openMailTransport(config, mail.dataDir, false);
  const target = { kind: "mail" as const, id: to, label: to };
  try {
    const result = await sendTestMail(ctx, config, transport, to, mail.siteUrl);
    await ctx.store.transaction((tx) =>
      recordAudit(tx, ctx.clock, {
        action: "mail.send-test",
        actor: by.audit,
        target,
        details: { via: transport.kind },
      }),
    );
    return result;
  } catch (error) {
    if (error instanceof MailDeliveryError)
      await recordRefusal(ctx, {
        action: "mail.send-test",
        actor: by.audit,
        target,
        details: { reason: error.reason },
      });
    throw error;
  } finally {
    transport.close();
  }
}
