// Sign in and sign out.
import { randomBytes } from "node:crypto";
import { signupPageOpen } from "../../domain/signup.js";
import { readSiteSettings } from "../../services/settings/site-settings.js";
import type { FastifyInstance } from "fastify";
import { TooManyRequestsError } from "../../domain/errors.js";
import { SECOND_STEP_MS } from "../../domain/two-factor.js";
import { queryValue } from "../../http-kit/query.js";
import { needsSetup } from "../../services/account/first-run.js";
import { endSession } from "../../services/session/session.js";
import { oidcOffer } from "../../services/oidc/oidc-sign-in.js";
import { signInWithPassword } from "../../services/two-factor/sign-in-step.js";
import { errorText } from "../i18n/i18n.js";
import { bindingOf } from "../../services/two-factor/passkey-challenge.js";
import { authenticationOptions } from "../../services/two-factor/passkeys.js";
import { type PublicPageRequest, type WebContext, registerPage, registerPublicPage, requireCsrf } from "../page.js";
import {
  SECOND_STEP_COOKIE,
  SIGNIN_COOKIE,
  clearSessionCookie,
  cookieOptions,
  deviceOf,
  takeBrowserZone,
  setDeviceCookie,
  setSessionCookie,
  signedInOf,
} from "../session.js";

/** The sign-in form's cookie lives as long as someone may take to type a password. */
const SIGNIN_FORM_MS = 60 * 60 * 1000;

/** `/signin` (GET form, POST e-mail and password) and `/signout` (POST). */
export function registerAuthPages(app: FastifyInstance, web: WebContext): void {
  registerPublicPage(app, web, "/signin", {
    async GET(page) {
      if (await signedInOf(web, page.request)) return page.redirect(safeNext(queryValue(page.query, "next")));
      const notice =
        queryValue(page.query, "signed-out") === "1"
          ? page.chrome.t("signin.signedOut")
          : queryValue(page.query, "deleted") === "1"
            ? page.chrome.t("signin.accountDeleted")
            : queryValue(page.query, "expired") === "1"
              ? page.chrome.t("secondStep.expired")
              : undefined;
      return showForm(web, page, { email: "", next: safeNext(queryValue(page.query, "next")), notice });
    },
    async POST(page) {
      requireFormToken(page);
      const email = page.form.get("email") ?? "";
      const next = safeNext(page.form.get("next") ?? undefined);
      const attempt = {
        email,
        password: page.form.get("password") ?? "",
        address: web.clientAddress(page.request),
        device: deviceOf(page.request),
      };
      const started = await signInWithPassword(web, attempt).catch((error: unknown) => {
        if (error instanceof TooManyRequestsError) return error;
        throw error;
      });
      // Throttled: the same form, saying so, with the status and Retry-After a script would read.
      if (started instanceof TooManyRequestsError) {
        page.reply.header("retry-after", String(started.retryAfterSeconds));
        return showForm(
          web,
          page,
          { email, next, error: errorText(page.chrome.lang, started.code, started.message) },
          429,
        );
      }
      if (!started) return showForm(web, page, { email, next, error: page.chrome.t("signin.wrong") });
      setDeviceCookie(web, page.reply, started.device);
      // An account with a second factor gets no session yet: the second step opens it.
      if (started.kind === "second-step") {
        page.reply.setCookie(SECOND_STEP_COOKIE, started.pending, cookieOptions(web, SECOND_STEP_MS));
        return page.redirect(`/signin/second-factor?${new URLSearchParams({ next }).toString()}`);
      }
      setSessionCookie(web, page.reply, started.started.token);
      page.reply.clearCookie(SIGNIN_COOKIE, { path: "/" });
      const userId = started.started.session.user.id;
      await takeBrowserZone(web, page.reply, userId, page.form.get("timeZone") ?? undefined);
      return page.redirect(next);
    },
  });
  registerPage(
    app,
    web,
    "/signout",
    {
      async POST(page) {
        await endSession(web, page.sessionToken);
        clearSessionCookie(web, page.reply);
        return page.redirect("/signin?signed-out=1");
      },
    },
    // Someone who must set up two-factor sign-in may still leave.
    { whileEnrolling: true },
  );
}

/** The sign-in page, with `data` in its form (and a new form token). */
export async function showForm(
  web: WebContext,
  page: PublicPageRequest,
  data: { email: string; next: string; error?: string; notice?: string | undefined },
  status = 200,
) {
  const token = issueFormToken(web, page);
  const signupHref = signupPageOpen(await readSiteSettings(web)) ? page.chrome.u("/signup") : undefined;
  return page.render(
    "signin",
    {
      title: page.chrome.t("signin.title"),
      signinCsrf: token,
      signupHref,
      forgotHref: page.chrome.u("/password/forgot"),
      // No account yet (a first run without the demo): say where the setup link is.
      setupNeeded: await needsSetup(web),
      // Single sign-on's button, when an administrator turned it on (pages/oidc.ts).
      oidcName: await oidcOffer(web),
      // "Sign in with a passkey" (passkey-sign-in.ts), its challenge bound to this form's token.
      passkeyOptions: JSON.stringify(await authenticationOptions(web, "sign-in", bindingOf("sign-in-form", token))),
      ...data,
    },
    status,
  );
}

/**
 * The form token of a page shown before sign-in (sign-in, sign-up, an invitation's link): there
 * is no session yet to keep one in, so it goes in a cookie and in the form (double submit).
 */
export function issueFormToken(web: WebContext, page: PublicPageRequest): string {
  const token = randomBytes(24).toString("base64url");
  page.reply.setCookie(SIGNIN_COOKIE, token, cookieOptions(web, SIGNIN_FORM_MS));
  return token;
}

/**
 * Asserts a form posted before sign-in carries the token of its cookie: only a page we served set
 * the cookie and put the same value in the form.
 * @throws ForbiddenError CSRF_TOKEN_INVALID
 */
export function requireFormToken(page: PublicPageRequest): void {
  requireCsrf(page.form.get("_csrf") ?? undefined, page.request.cookies[SIGNIN_COOKIE] ?? "\u0000");
}

/**
 * Where to go after signing in: a path of this site only. Anything else (another host, `//x`,
 * a scheme) would make the sign-in page an open redirect.
 */
export function safeNext(next: string | undefined): string {
  if (next === undefined || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  return next;
}
