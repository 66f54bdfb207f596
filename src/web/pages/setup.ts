// The first run's setup page (`/setup/SECRET`, the link `kairan serve` prints while the database
// has no account): it creates the first account, the site's administrator, and signs it in.
import type { FastifyInstance } from "fastify";
import { ValidationError } from "../../domain/errors.js";
import { createFirstAdministrator, readSetup } from "../../services/account/first-run.js";
import { openSession } from "../../services/session/session.js";
import { errorText } from "../i18n/i18n.js";
import { type PublicPageRequest, type WebContext, registerPublicPage } from "../page.js";
import { setSessionCookie } from "../session.js";
import { isLinkProblem, linkProblemPage } from "./account-links.js";
import { issueFormToken, requireFormToken } from "./auth.js";

/** `/setup/:secret`. */
export function registerSetupPages(app: FastifyInstance, web: WebContext): void {
  registerPublicPage(app, web, "/setup/:secret", {
    async GET(page) {
      try {
        return await setupPage(web, page, { name: "", email: "" });
      } catch (error) {
        if (!isLinkProblem(error)) throw error;
        return linkProblemPage(page, error, undefined);
      }
    },
    async POST(page) {
      requireFormToken(page);
      const values = { name: page.form.get("name") ?? "", email: page.form.get("email") ?? "" };
      try {
        const user = await createFirstAdministrator(web, {
          ...values,
          secret: page.params.secret ?? "",
          password: page.form.get("password") ?? "",
          repeated: page.form.get("repeat") ?? "",
          address: web.clientAddress(page.request),
        });
        const started = await openSession(web, user);
        setSessionCookie(web, page.reply, started.token);
        return page.redirect("/");
      } catch (error) {
        if (isLinkProblem(error)) return linkProblemPage(page, error, undefined);
        if (!(error instanceof ValidationError)) throw error;
        return setupPage(web, page, values, errorText(page.chrome.lang, error.code, error.message));
      }
    },
  });
}

async function setupPage(
  web: WebContext,
  page: PublicPageRequest,
  values: { name: string; email: string },
  error?: string,
) {
  const secret = page.params.secret ?? "";
  await readSetup(web, secret);
  return page.render(
    "setup",
    {
      title: page.chrome.t("setup.title"),
      formCsrf: issueFormToken(web, page),
      action: page.chrome.u(`/setup/${encodeURIComponent(secret)}`),
      values,
      error,
    },
    error === undefined ? 200 : 400,
  );
}
