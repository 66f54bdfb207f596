// The confirmation link of an address change (`/account/email/confirm/SECRET`), opened from the
// new address's mailbox: the page names the change, and only its button makes it (a mail client
// that fetches links to preview them changes nothing). Signing in is not needed: the link proves
// the new address, the account page's password proved the account.
import type { FastifyInstance } from "fastify";
import { ValidationError } from "../../domain/errors.js";
import { confirmAddressChange, readAddressChange } from "../../services/account/address-change.js";
import { errorText } from "../i18n/i18n.js";
import { type PublicPageRequest, type WebContext, registerPublicPage } from "../page.js";
import { isLinkProblem, linkProblemPage } from "./account-links.js";
import { issueFormToken, requireFormToken } from "./auth.js";

/** `/account/email/confirm/:secret`. */
export function registerAddressChangePages(app: FastifyInstance, web: WebContext): void {
  registerPublicPage(app, web, "/account/email/confirm/:secret", {
    async GET(page) {
      try {
        return await confirmPage(web, page);
      } catch (error) {
        if (!isLinkProblem(error)) throw error;
        return linkProblemPage(page, error, "/account#email");
      }
    },
    async POST(page) {
      requireFormToken(page);
      try {
        await confirmAddressChange(web, page.params.secret ?? "", web.clientAddress(page.request));
        return page.redirect("/account?saved=email-changed#email");
      } catch (error) {
        if (isLinkProblem(error)) return linkProblemPage(page, error, "/account#email");
        // Taken meanwhile by another account: the page again, saying so.
        if (!(error instanceof ValidationError)) throw error;
        return confirmPage(web, page, errorText(page.chrome.lang, error.code, error.message));
      }
    },
  });
}

async function confirmPage(web: WebContext, page: PublicPageRequest, error?: string) {
  const secret = page.params.secret ?? "";
  const change = await readAddressChange(web, secret);
  return page.render(
    "email-confirm",
    {
      title: page.chrome.t("emailConfirm.title"),
      change,
      formCsrf: issueFormToken(web, page),
      action: page.chrome.u(`/account/email/confirm/${encodeURIComponent(secret)}`),
      error,
    },
    error === undefined ? 200 : 400,
  );
}
