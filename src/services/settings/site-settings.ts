// The site's settings: read afresh on each use (one small query), so a change in the browser applies
// at once in every process without a restart; changed only here, with an audit row in the same
// transaction naming what changed from what.
import { type AuditActor } from "../../domain/audit.js";
import { open, seal } from "../../auth/secret-box.js";
import {
  type SettingDefaults,
  type SettingName,
  type SiteSettings,
  checkClientSecret,
  checkSetting,
  defaultSettings,
  requireCompleteOidc,
} from "../../domain/site-settings.js";
import type { SiteSettingRepo } from "../../store/queries/site-settings.js";
import { recordAudit } from "../audit/audit-log.js";
import type { ServiceContext } from "../context.js";
import { siteKey } from "../site-key.js";

/**
 * The row of single sign-on's client secret: sealed under the `oidc-secret` site key, outside
 * SiteSettings (which pages show and audit rows copy), so it is never shown back nor logged.
 */
export const CLIENT_SECRET_SETTING = "oidcClientSecret";

/** The services that read settings know the server's options they fall back to. */
export interface SettingsContext extends ServiceContext {
  readonly config: SettingDefaults;
}

/** The settings in force: the stored ones over the server's options. */
export async function readSiteSettings(ctx: SettingsContext): Promise<SiteSettings> {
  return ctx.store.read((tx) => siteSettingsIn(tx, ctx.config));
}

/** The settings in force, read inside the caller's transaction (a service that writes mail in its own). */
export async function siteSettingsIn(
  tx: { readonly siteSettings: SiteSettingRepo },
  defaults: SettingDefaults,
): Promise<SiteSettings> {
  const rows = await tx.siteSettings.all();
  const settings: Record<string, unknown> = { ...defaultSettings(defaults) };
  for (const row of rows) {
    // A row of a setting this version no longer knows, or cannot read, is ignored.
    if (!(row.name in settings)) continue;
    try {
      settings[row.name] = checkSetting(row.name, storedInput(JSON.parse(row.value)))[1];
    } catch {
      // kept at its default
    }
  }
  return settings as unknown as SiteSettings;
}

/**
 * Changes the named settings (values as a form or a command gives them), all or none, and writes
 * one `settings.change` audit row with each changed setting's before and after.
 * @returns the settings in force afterwards
 * @throws ValidationError SETTING_UNKNOWN, SETTING_INVALID (nothing changed)
 */
export async function updateSiteSettings(
  ctx: SettingsContext,
  actor: AuditActor,
  changes: Readonly<Record<string, unknown>>,
): Promise<SiteSettings> {
  const { [CLIENT_SECRET_SETTING]: rawSecret, ...others } = changes;
  const checked = Object.entries(others).map(([name, raw]) => checkSetting(name, raw));
  // A blank secret keeps the stored one: the form never shows it back to be sent again.
  const secret =
    typeof rawSecret === "string" && rawSecret.trim() !== "" ? checkClientSecret(rawSecret.trim()) : undefined;
  const before = await readSiteSettings(ctx);
  const oldSecret = await readClientSecret(ctx);
  const after = { ...before, ...Object.fromEntries(checked) } as SiteSettings;
  requireCompleteOidc(after, (secret ?? oldSecret) !== undefined);
  const changed = checked.filter(([name, value]) => JSON.stringify(before[name]) !== JSON.stringify(value));
  const secretChanged = secret !== undefined && secret !== oldSecret;
  if (changed.length > 0 || secretChanged) {
    const sealed = secretChanged ? await sealClientSecret(ctx, secret) : undefined;
    await ctx.store.transaction(async (tx) => {
      const at = ctx.clock.now();
      for (const [name, value] of changed)
        await tx.siteSettings.put(name, JSON.stringify(value), at, actor.userId ?? null);
      if (sealed !== undefined)
        await tx.siteSettings.put(CLIENT_SECRET_SETTING, JSON.stringify(sealed), at, actor.userId ?? null);
      const names = [...changed.map(([name]) => name), ...(secretChanged ? [CLIENT_SECRET_SETTING] : [])];
      await recordAudit(tx, ctx.clock, {
        action: "settings.change",
        actor,
        target: { kind: "settings", id: "site", label: names.join(", ") },
        details: {
          ...Object.fromEntries(
            changed.map(([name, value]) => [name, { before: before[name as SettingName], after: value }]),
          ),
          // Redacted: the row says the secret changed, never what it was or is.
          ...(secretChanged ? { [CLIENT_SECRET_SETTING]: { changed: true } } : {}),
        },
      });
    });
  }
  return readSiteSettings(ctx);
}

/** Single sign-on's client secret in the clear (for the provider only), or undefined when none is stored. */
export async function readClientSecret(ctx: ServiceContext): Promise<string | undefined> {
  const rows = await ctx.store.read((tx) => tx.siteSettings.all());
  const row = rows.find((candidate) => candidate.name === CLIENT_SECRET_SETTING);
  if (row === undefined) return undefined;
  let sealed: unknown;
  try {
    sealed = JSON.parse(row.value);
  } catch {
    return undefined;
  }
  if (typeof sealed !== "string") return undefined;
  return open(await siteKey(ctx, "oidc-secret"), CLIENT_SECRET_SETTING, sealed);
}

async function sealClientSecret(ctx: ServiceContext, secret: string): Promise<string> {
  return seal(await siteKey(ctx, "oidc-secret"), CLIENT_SECRET_SETTING, secret);
}

/** A stored value in the form checkSetting reads (numbers were stored as numbers). */
function storedInput(value: unknown): unknown {
  return typeof value === "number" ? String(value) : value;
}
