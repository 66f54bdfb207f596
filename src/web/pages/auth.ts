// Sign in and sign out.
import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { TooManyRequestsError } from "../../domain/errors.js";
import { queryValue } from "../../http-kit/query.js";
import { endSession, startSession } from "../../services/session/session.js";
import { errorText } from "../i18n/i18n.js";
import { type PublicPageRequest, type WebContext, registerPage, registerPublicPage, requireCsrf } from "../page.js";
import {
  SIGNIN_COOKIE,
  clearSessionCookie,
  cookieOptions,
  deviceOf,
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
      const notice = queryValue(page.query, "signed-out") === "1" ? page.chrome.t("signin.signedOut") : undefined;
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
      const started = await startSession(web, attempt).catch((error: unknown) => {
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
      setSessionCookie(web, page.reply, started.token);
      if (started.device !== undefined) setDeviceCookie(web, page.reply, started.device);
      page.reply.clearCookie(SIGNIN_COOKIE, { path: "/" });
      return page.redirect(next);
    },
  });
  registerPage(app, web, "/signout", {
    async POST(page) {
      await endSession(web, page.sessionToken);
      clearSessionCookie(web, page.reply);
      return page.redirect("/signin?signed-out=1");
    },
  });
}

function showForm(
  web: WebContext,
  page: PublicPageRequest,
  data: { email: string; next: string; error?: string; notice?: string | undefined },
  status = 200,
) {
  const token = issueFormToken(web, page);
  const signupHref = web.config.allowSignup ? page.chrome.u("/signup") : undefined;
  return page.render(
    "signin",
    { title: page.chrome.t("signin.title"), signinCsrf: token, signupHref, ...data },
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
