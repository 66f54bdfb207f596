// The account page (`/account`): picture, name and reading, language and time zone, password,
// e-mail address (changed through a link sent to the new one: address-change.ts), and deleting
// the account.
// Each part is its own form; a refused form shows the page again with the message beside it and
// what was typed (never a password), and changes nothing.
import { TIME_ZONES } from "../time-zones.js";
import { readSiteSettings } from "../../services/settings/site-settings.js";
import type { FastifyInstance, FastifyReply } from "fastify";
import { DomainError, TooManyRequestsError } from "../../domain/errors.js";
import { parsePair } from "../../domain/item-id.js";
import { FORMER_MEMBER_NAME } from "../../domain/site-admin.js";
import type { Preferences, UserNames } from "../../domain/user.js";
import {
  changePassword,
  readAccount,
  removePicture,
  setPicture,
  setPreferences,
  updateNames,
  userIcon,
} from "../../services/account/account.js";
import { requestAddressChange } from "../../services/account/address-change.js";
import { deleteOwnAccount } from "../../services/account/site-admin.js";
import { twoFactorStatus } from "../../services/two-factor/status.js";
import { toErrorReply } from "../../http/errors.js";
import { queryValue } from "../../http-kit/query.js";
import { errorText } from "../i18n/i18n.js";
import { type PageRequest, type WebContext, pageNotFound, registerPage } from "../page.js";
import { clearSessionCookie, deviceOf } from "../session.js";
import { registerAccountExport } from "./account-export.js";
import { receivePicture } from "./picture-upload.js";

/** The forms of the page, each a section with this id. */
type Part = "picture" | "names" | "preferences" | "password" | "email" | "delete";

/** What a refused form sends back to be shown again. */
interface Refusal {
  readonly part: Part;
  readonly message: string;
  readonly names?: UserNames;
  readonly preferences?: { lang: string; timeZone: string };
  /** The new address typed into a refused address change. */
  readonly newEmail?: string;
}

/** `/account`, its forms, and `/users/:user/picture`. */
export function registerAccountPages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/account", { GET: (page) => showAccount(web, page) });
  registerPage(app, web, "/account/names", {
    POST: (page) => {
      const names = {
        name: field(page, "name"),
        familyKana: field(page, "familyKana"),
        givenKana: field(page, "givenKana"),
      };
      return attempt(web, page, { part: "names", names }, () => updateNames(web, page.actor, names));
    },
  });
  registerPage(app, web, "/account/preferences", {
    POST: (page) => {
      const preferences = { lang: field(page, "lang"), timeZone: field(page, "timeZone") };
      return attempt(web, page, { part: "preferences", preferences }, () =>
        setPreferences(web, page.actor, preferences),
      );
    },
  });
  registerPage(app, web, "/account/password", {
    POST: (page) =>
      attempt(web, page, { part: "password" }, () =>
        changePassword(web, page.actor, {
          current: field(page, "current"),
          next: field(page, "password"),
          repeated: field(page, "repeat"),
          address: web.clientAddress(page.request),
          device: deviceOf(page.request),
          keepSessionId: page.session.id,
        }),
      ),
  });
  registerPage(app, web, "/account/email", {
    POST: (page) => {
      const newEmail = field(page, "email");
      return attempt(web, page, { part: "email", newEmail }, () =>
        requestAddressChange(web, page.actor, {
          email: newEmail,
          password: field(page, "current"),
          address: web.clientAddress(page.request),
          device: deviceOf(page.request),
        }),
      );
    },
  });
  registerPage(
    app,
    web,
    "/account/picture",
    {
      POST: (page) =>
        attempt(web, page, { part: "picture" }, async () =>
          setPicture(web, page.actor, await receivePicture(web, page)),
        ),
    },
    { multipart: true },
  );
  registerPage(app, web, "/account/picture/remove", {
    POST: (page) => attempt(web, page, { part: "picture" }, () => removePicture(web, page.actor)),
  });
  // Deleting one's own account (deleteOwnAccount says what goes and what stays): the session ends
  // with it, and the browser lands on the sign-in page saying so.
  registerPage(app, web, "/account/delete", {
    POST: (page) =>
      attempt(
        web,
        page,
        { part: "delete" },
        () =>
          deleteOwnAccount(web, page.actor, {
            proof: field(page, "current"),
            address: web.clientAddress(page.request),
            device: deviceOf(page.request),
          }),
        () => {
          clearSessionCookie(web, page.reply);
          return page.redirect("/signin?deleted=1");
        },
      ),
  });
  registerAccountExport(app, web);
  registerPage(app, web, "/users/:user/picture", { GET: (page) => sendPicture(web, page) });
}

function field(page: PageRequest, name: string): string {
  return page.form.get(name) ?? "";
}

/** Runs a form's change: then back to the page, saying so; refused, the page again with why (and its status). */
async function attempt(
  web: WebContext,
  page: PageRequest,
  refusal: Omit<Refusal, "message">,
  change: () => Promise<unknown>,
  done: () => FastifyReply = () => page.redirect(`/account?saved=${refusal.part}#${refusal.part}`),
) {
  try {
    await change();
  } catch (error) {
    // Faults, CSRF and session problems go to the error page; a person's mistakes stay on this one.
    if (!(error instanceof DomainError) || error.code === "CSRF_TOKEN_INVALID" || error.code === "SIGNED_OUT")
      throw error;
    const status = toErrorReply(error).status;
    if (error instanceof TooManyRequestsError) page.reply.header("retry-after", String(error.retryAfterSeconds));
    return showAccount(
      web,
      page,
      { ...refusal, message: errorText(page.chrome.lang, error.code, error.message) },
      status,
    );
  }
  return done();
}

async function showAccount(web: WebContext, page: PageRequest, refusal?: Refusal, status = 200) {
  const view = await readAccount(web, page.actor);
  const saved = queryValue(page.query, "saved");
  const preferences = refusal?.preferences ?? preferenceFields(view.preferences);
  return page.render(
    "account",
    {
      title: page.chrome.t("account.title"),
      section: "account",
      saved: refusal
        ? undefined
        : (["picture", "names", "preferences", "password", "email", "email-changed"] as const).find((p) => p === saved),
      refusal,
      avatar: page.chrome.avatar(view.user.id, view.user.name, view.pictureEtag?.replace(/"/g, "")),
      hasPicture: view.pictureEtag !== undefined,
      names: refusal?.names ?? view.user,
      preferences,
      timeZones:
        preferences.timeZone === "" || TIME_ZONES.includes(preferences.timeZone)
          ? TIME_ZONES
          : [preferences.timeZone, ...TIME_ZONES],
      // The site's default zone (its setting, else --time-zone): what "none chosen" means here.
      defaultTimeZone: (await readSiteSettings(web)).timeZone,
      now: web.clock.now(),
      email: view.user.email,
      newEmail: refusal?.newEmail ?? "",
      twoFactor: await twoFactorStatus(web, page.actor.user.id),
      formerMember: FORMER_MEMBER_NAME,
    },
    status,
  );
}

function preferenceFields(preferences: Preferences): { lang: string; timeZone: string } {
  return { lang: preferences.lang ?? "", timeZone: preferences.timeZone ?? "" };
}

/** A person's picture for someone who shares a group with them; cached by the browser under its version. */
async function sendPicture(web: WebContext, page: PageRequest) {
  const userId = parsePair(page.params.user ?? "");
  if (userId === undefined) throw pageNotFound();
  const icon = await userIcon(web, page.actor, userId);
  if (!icon) throw pageNotFound();
  page.reply
    .header("etag", icon.etag)
    .header("cache-control", "private, max-age=3600")
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", "default-src 'none'; sandbox");
  if (page.request.headers["if-none-match"] === icon.etag) return page.reply.code(304).send();
  return page.reply.code(200).header("content-type", icon.mediaType).send(Buffer.from(icon.bytes));
}
