// "Sign in with a passkey" (`POST /signin/passkey`): a discoverable passkey with user verification
// is the whole sign-in, both factors at once. Its challenge is bound to the sign-in form's token
// (the cookie and the form field the page set), so an answer made for one page works on no other.
// The form reports the browser's time zone, as the password form does (web/session.ts).
import type { FastifyInstance } from "fastify";
import { DomainError, TooManyRequestsError } from "../../domain/errors.js";
import { toErrorReply } from "../../http/errors.js";
import { bindingOf } from "../../services/two-factor/passkey-challenge.js";
import { signInWithPasskey } from "../../services/two-factor/passkeys.js";
import { errorText } from "../i18n/i18n.js";
import { type WebContext, registerPublicPage } from "../page.js";
import { SIGNIN_COOKIE, deviceOf, setDeviceCookie, setSessionCookie, takeBrowserZone } from "../session.js";
import { requireFormToken, safeNext, showForm } from "./auth.js";

/** Registers `POST /signin/passkey`. */
export function registerPasskeySignIn(app: FastifyInstance, web: WebContext): void {
  registerPublicPage(app, web, "/signin/passkey", {
    async POST(page) {
      requireFormToken(page);
      const next = safeNext(page.form.get("next") ?? undefined);
      try {
        const { started, device } = await signInWithPasskey(web, {
          response: page.form.get("response") ?? "",
          binding: bindingOf("sign-in-form", page.request.cookies[SIGNIN_COOKIE] ?? ""),
          address: web.clientAddress(page.request),
          device: deviceOf(page.request),
        });
        setDeviceCookie(web, page.reply, device);
        setSessionCookie(web, page.reply, started.token);
        // As after a password: the browser's zone for an account without one, else offered.
        await takeBrowserZone(web, page.reply, started.session.user.id, page.form.get("timeZone") ?? undefined);
        page.reply.clearCookie(SIGNIN_COOKIE, { path: "/" });
        return page.redirect(next);
      } catch (error) {
        if (!(error instanceof DomainError) || error.code === "CSRF_TOKEN_INVALID") throw error;
        if (error instanceof TooManyRequestsError) page.reply.header("retry-after", String(error.retryAfterSeconds));
        const message = errorText(page.chrome.lang, error.code, error.message);
        return showForm(web, page, { email: "", next, error: message }, toErrorReply(error).status);
      }
    },
  });
}
