// The site's language and time zone, for the people who chose none: the stored settings over the
// server's --locale and --time-zone. Mail reads them once per message or per pass of the mailer,
// so a change in the admin pages reaches the next message without a restart.
import type { SiteSettings } from "../../domain/site-settings.js";
import type { SiteSettingRepo } from "../../store/queries/site-settings.js";
import type { ServiceContext } from "../context.js";
import { siteSettingsIn } from "./site-settings.js";

export type SiteLocale = Pick<SiteSettings, "locale" | "timeZone" | "siteName">;

/** The server's options a site's language and zone fall back to. */
export interface LocaleDefaults {
  readonly locale: SiteSettings["locale"];
  readonly timeZone: string;
}

/** The site's language, zone and name, read inside the caller's transaction. */
export async function siteLocaleIn(
  tx: { readonly siteSettings: SiteSettingRepo },
  defaults: LocaleDefaults,
): Promise<SiteLocale> {
  // The sign-up policy is not read here: allowSignup does not matter to a language or a zone.
  const site = await siteSettingsIn(tx, { locale: defaults.locale, timeZone: defaults.timeZone, allowSignup: false });
  return { locale: site.locale, timeZone: site.timeZone, siteName: site.siteName };
}

/** The site's name alone, read inside the caller's transaction (the sender names mail with it). */
export async function siteNameIn(tx: { readonly siteSettings: SiteSettingRepo }): Promise<string> {
  // Only the name is used: its default ("Kairan") does not depend on the server's options.
  return (await siteLocaleIn(tx, { locale: "en", timeZone: "UTC" })).siteName;
}

/** The same, in a read of its own (a pass of the mailer reads it once). */
export function readSiteLocale(ctx: ServiceContext & { readonly config: LocaleDefaults }): Promise<SiteLocale> {
  return ctx.store.read((tx) => siteLocaleIn(tx, ctx.config));
}
