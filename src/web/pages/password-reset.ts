// "Forgot your password?" (`/password/forgot`): the address is asked for, and the answer is the
// same whether an account has it or not; the link of the message (`/password/reset/SECRET`) sets a
// new password, signs the person in here and out everywhere else.
import type { FastifyInstance } from "fastify";
import { TooManyRequestsError, ValidationError } from "../../domain/errors.js";
import { readPasswordReset, requestPasswordReset, resetPassword } from "../../services/account/password-reset.js";
import { SECOND_STEP_MS } from "../../domain/two-factor.js";
import { continueSignIn } from "../../services/two-factor/sign-in-step.js";
import { errorText } from "../i18n/i18n.js";
import { type PublicPageRequest, type WebContext, registerPublicPage } from "../page.js";
import { SECOND_STEP_COOKIE, cookieOptions, setSessionCookie } from "../session.js";
import { isLinkProblem, linkProblemPage } from "./account-links.js";
import { issueFormToken, requireFormToken } from "./auth.js";

/** `/password/forgot` and `/password/reset/:secret`. */
export function registerPasswordResetPages(app: FastifyInstance, web: WebContext): void {
  registerPublicPage(app, web, "/password/forgot", {
    GET: async (page) => forgotPage(web, page, { email: "" }),
    async POST(page) {
      requireFormToken(page);
      const email = page.form.get("email") ?? "";
      try {
        await requestPasswordReset(web, { email, address: web.clientAddress(page.request) });
      } catch (error) {
        if (error instanceof TooManyRequestsError) {
          page.reply.header("retry-after", String(error.retryAfterSeconds));
          return forgotPage(web, page, { email, error: errorText(page.chrome.lang, error.code, error.message) }, 429);
        }
        if (!(error instanceof ValidationError)) throw error;
        return forgotPage(web, page, { email, error: errorText(page.chrome.lang, error.code, error.message) }, 400);
      }
      // The same page for every address: it never says whether an account has it.
      return page.render("password-forgot", { title: page.chrome.t("forgot.title"), sent: true });
    },
  });
  registerPublicPage(app, web, "/password/reset/:secret", {
    async GET(page) {
      try {
        return await resetPage(web, page);
      } catch (error) {
        if (!isLinkProblem(error)) throw error;
        return linkProblemPage(page, error, "/password/forgot");
      }
    },
    async POST(page) {
      requireFormToken(page);
      const secret = page.params.secret ?? "";
      try {
        const input = {
          secret,
          password: page.form.get("password") ?? "",
          repeated: page.form.get("repeat") ?? "",
          address: web.clientAddress(page.request),
        };
        const done = await resetPassword(web, input);
        const next = "/account?saved=password#password";
        const signedIn = await continueSignIn(web, done.user);
        // An account with a second factor still takes the second step: the mailed link is one factor.
        if (signedIn.kind === "second-step") {
          page.reply.setCookie(SECOND_STEP_COOKIE, signedIn.pending, cookieOptions(web, SECOND_STEP_MS));
          return page.redirect(`/signin/second-factor?${new URLSearchParams({ next }).toString()}`);
        }
        setSessionCookie(web, page.reply, signedIn.started.token);
        return page.redirect(next);
      } catch (error) {
        if (isLinkProblem(error)) return linkProblemPage(page, error, "/password/forgot");
        if (!(error instanceof ValidationError)) throw error;
        return resetPage(web, page, errorText(page.chrome.lang, error.code, error.message));
      }
    },
  });
}

function forgotPage(web: WebContext, page: PublicPageRequest, values: { email: string; error?: string }, status = 200) {
  return page.render(
    "password-forgot",
    {
      title: page.chrome.t("forgot.title"),
      sent: false,
      formCsrf: issueFormToken(web, page),
      action: page.chrome.u("/password/forgot"),
      ...values,
    },
    status,
  );
}

/** The new password's form, for a live link (a refused password: again, with why). */
async function resetPage(web: WebContext, page: PublicPageRequest, error?: string) {
  const secret = page.params.secret ?? "";
  const account = await readPasswordReset(web, secret);
  return page.render(
    "password-reset",
    {
      title: page.chrome.t("reset.title"),
      account,
      formCsrf: issueFormToken(web, page),
      action: page.chrome.u(`/password/reset/${encodeURIComponent(secret)}`),
      error,
    },
    error === undefined ? 200 : 400,
  );
}
