// Whom an account message goes to, and in which language and time zone: the recipient's own
// choices on their account page, else the site's settings (else --locale, --time-zone).
import type { MailConfig } from "../../config/mail.js";
import type { MailLang } from "../../mail/account/compose.js";
import type { Tx } from "../../store/store.js";
import type { MailContext } from "../mail/outbox.js";
import { siteLocaleIn } from "../settings/site-locale.js";

/** What the services that send account mail need: the mail context and the site's language and zone. */
export interface AccountMailContext extends MailContext {
  readonly config: {
    readonly mail: MailConfig;
    readonly locale: MailLang;
    readonly timeZone: string;
  };
}

/** A recipient's language and time zone, and the site's name their message gives. */
export interface RecipientLocale {
  readonly lang: MailLang;
  readonly timeZone: string;
  readonly siteName: string;
}

/**
 * The language and zone of the account `userId` (undefined: someone without one), else the site's
 * settings (else --locale, --time-zone), read in the message's own transaction.
 */
export async function recipientLocale(
  tx: Tx,
  ctx: AccountMailContext,
  userId: number | undefined,
): Promise<RecipientLocale> {
  const chosen = userId === undefined ? undefined : await tx.users.findPreferences(userId);
  const site = await siteLocaleIn(tx, ctx.config);
  return { lang: chosen?.lang ?? site.locale, timeZone: chosen?.timeZone ?? site.timeZone, siteName: site.siteName };
}
