// The site's settings in the administration (`/admin/settings`): the form over the settings kept
// in the database (applied at once, no restart), and "send a test message".
import type { FastifyInstance } from "fastify";
import { ValidationError } from "../../domain/errors.js";
import { SIGNUP_POLICIES, type SiteSettings, TWO_FACTOR_POLICIES } from "../../domain/site-settings.js";
import { isPlainAddress } from "../../mail/message.js";
import { MailDeliveryError } from "../../services/mail/send-test.js";
import type { MailRelayChange } from "../../services/settings/mail-relay.js";
import {
  changeMailRelayAsAdmin,
  changeSettingsAsAdmin,
  readMailRelayAsAdmin,
  readSettingsAsAdmin,
  sendTestMailAsAdmin,
} from "../../services/settings/site-settings-admin.js";
import { queryValue } from "../../http-kit/query.js";
import { errorText } from "../i18n/i18n.js";
import type { WebContext } from "../page.js";
import { type AdminPageRequest, registerAdminPage, renderAdmin } from "./admin-guard.js";
import { type MailView, mailView } from "./admin-mail-view.js";
import { oidcRedirectUri } from "./oidc.js";

const FIELDS = [
  "siteName",
  "signupPolicy",
  "signupDomains",
  "locale",
  "timeZone",
  "twoFactorPolicy",
  "auditRetentionDays",
];

/**
 * Single sign-on's fields, taken when the form has its part (a client that posts the older form
 * leaves them as they are); an unticked box sends nothing, which is off.
 */
const OIDC_FIELDS = [
  "oidcEnabled",
  "oidcName",
  "oidcIssuer",
  "oidcClientId",
  "oidcClientSecret",
  "oidcEmailClaim",
  "oidcCreateUsers",
  "oidcDomains",
  "oidcTrustSecondFactor",
];

/** The `/admin/settings` routes. */
export function registerAdminSettingsPages(app: FastifyInstance, web: WebContext): void {
  const settingsContext = { ...web, config: web.config };
  registerAdminPage(
    app,
    web,
    "/admin/settings",
    {
      async GET(page) {
        const settings = await readSettingsAsAdmin(settingsContext, page.by);
        return settingsPage(web, page, valuesOf(settings), {
          saved: queryValue(page.query, "saved") === "1",
          secretSaved: settings.oidcClientSecretSaved,
          mail: mailView(await readMailRelayAsAdmin(web, page.by, web.config.mail), {
            saved: queryValue(page.query, "saved") === "mail",
          }),
        });
      },
      async POST(page) {
        const fields = page.form.has("oidcName") ? [...FIELDS, ...OIDC_FIELDS] : FIELDS;
        const changes = Object.fromEntries(fields.map((name) => [name, page.form.get(name) ?? ""]));
        try {
          await changeSettingsAsAdmin(settingsContext, page.by, changes);
          return page.redirect("/admin/settings?saved=1");
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          // The form comes back as typed, except the secret: a page never shows one.
          const { oidcClientSecret: _secret, ...shown } = changes;
          const current = await readSettingsAsAdmin(settingsContext, page.by);
          return settingsPage(
            web,
            page,
            { ...valuesOf(current), ...shown },
            {
              error: errorText(page.chrome.lang, error.code, error.message),
              secretSaved: current.oidcClientSecretSaved,
              mail: mailView(await readMailRelayAsAdmin(web, page.by, web.config.mail)),
            },
          );
        }
      },
    },
    "settings.change",
  );
  registerAdminPage(
    app,
    web,
    "/admin/settings/mail",
    {
      async POST(page) {
        const typed: MailRelayChange = {
          smtpUrl: page.form.get("mailSmtpUrl") ?? "",
          smtpPassword: page.form.get("mailSmtpPassword") ?? "",
          from: page.form.get("mailFrom") ?? "",
        };
        const clear = page.form.get("action") === "clear";
        try {
          await changeMailRelayAsAdmin(web, page.by, web.config.mail, clear ? "clear" : typed);
          return page.redirect("/admin/settings?saved=mail#mail-settings");
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          const settings = await readSettingsAsAdmin(settingsContext, page.by);
          const relay = await readMailRelayAsAdmin(web, page.by, web.config.mail);
          return settingsPage(web, page, valuesOf(settings), {
            secretSaved: settings.oidcClientSecretSaved,
            // The form again as typed, never the password.
            mail: mailView(relay, { typed, error: errorText(page.chrome.lang, error.code, error.message) }),
          });
        }
      },
    },
    "settings.change",
  );
  registerAdminPage(
    app,
    web,
    "/admin/settings/test-mail",
    {
      async POST(page) {
        const to = (page.form.get("to") ?? "").trim();
        const settings = await readSettingsAsAdmin(settingsContext, page.by);
        const mailShown = mailView(await readMailRelayAsAdmin(web, page.by, web.config.mail));
        if (!isPlainAddress(to))
          return settingsPage(web, page, valuesOf(settings), {
            mailError: page.chrome.t("admin.settings.mailAddress"),
            secretSaved: settings.oidcClientSecretSaved,
            mail: mailShown,
          });
        const mail = { config: web.config.mail, dataDir: web.config.dataDir, siteUrl: web.baseUrl() };
        try {
          await sendTestMailAsAdmin(web, page.by, mail, to);
          return settingsPage(web, page, valuesOf(settings), {
            mailSent: to,
            secretSaved: settings.oidcClientSecretSaved,
            mail: mailShown,
          });
        } catch (error) {
          if (!(error instanceof MailDeliveryError)) throw error;
          return settingsPage(web, page, valuesOf(settings), {
            mailError: error.reason,
            secretSaved: settings.oidcClientSecretSaved,
            mail: mailShown,
          });
        }
      },
    },
    "mail.send-test",
  );
}

/** The settings as the form's fields show them. */
function valuesOf(settings: SiteSettings): Record<string, string> {
  return {
    siteName: settings.siteName,
    signupPolicy: settings.signupPolicy,
    signupDomains: settings.signupDomains.join("\n"),
    locale: settings.locale,
    timeZone: settings.timeZone,
    twoFactorPolicy: settings.twoFactorPolicy,
    auditRetentionDays: String(settings.auditRetentionDays),
    oidcEnabled: settings.oidcEnabled ? "on" : "",
    oidcName: settings.oidcName,
    oidcIssuer: settings.oidcIssuer,
    oidcClientId: settings.oidcClientId,
    oidcEmailClaim: settings.oidcEmailClaim,
    oidcCreateUsers: settings.oidcCreateUsers ? "on" : "",
    oidcDomains: settings.oidcDomains.join("\n"),
    oidcTrustSecondFactor: settings.oidcTrustSecondFactor ? "on" : "",
  };
}

function settingsPage(
  web: WebContext,
  page: AdminPageRequest,
  values: Readonly<Record<string, unknown>>,
  notes: {
    saved?: boolean;
    error?: string;
    mailSent?: string;
    mailError?: string;
    secretSaved: boolean;
    mail: MailView;
  },
) {
  const failed = notes.error !== undefined || notes.mailError !== undefined || notes.mail.error !== undefined;
  return renderAdmin(
    page,
    "admin-settings",
    "settings",
    {
      values,
      policies: SIGNUP_POLICIES,
      twoFactorPolicies: TWO_FACTOR_POLICIES,
      redirectUri: oidcRedirectUri(web),
      ...notes,
    },
    failed ? 400 : 200,
  );
}
