// Two-factor sign-in on the account side (`/account/two-factor`): set up an authenticator app
// (QR code and secret, confirmed by a code), the recovery codes shown once, new codes, turning it
// off; passkeys (add one, remove one: `/account/passkeys/...`); and the sign-in's second step
// (`/signin/second-factor`, a code or a passkey), where the session is opened.
import type { FastifyInstance, FastifyReply } from "fastify";
import QRCode from "qrcode";
import { DomainError, TooManyRequestsError } from "../../domain/errors.js";
import { formatRecoveryCode } from "../../domain/two-factor.js";
import { toErrorReply } from "../../http/errors.js";
import { queryValue } from "../../http-kit/query.js";
import { bindingOf } from "../../services/two-factor/passkey-challenge.js";
import {
  addPasskey,
  listPasskeys,
  registrationOptions,
  removePasskey,
} from "../../services/two-factor/passkey-registration.js";
import { authenticationOptions } from "../../services/two-factor/passkeys.js";
import { completeSignIn, completeSignInWithPasskey, pendingUser } from "../../services/two-factor/sign-in-step.js";
import { twoFactorStatus } from "../../services/two-factor/status.js";
import {
  confirmTotpEnrolment,
  disableTwoFactor,
  pendingTotpEnrolment,
  regenerateRecoveryCodes,
  startTotpEnrolment,
} from "../../services/two-factor/two-factor.js";
import { errorText } from "../i18n/i18n.js";
import {
  type PageRequest,
  type PublicPageRequest,
  type WebContext,
  registerPage,
  registerPublicPage,
} from "../page.js";
import { SECOND_STEP_COOKIE, SIGNIN_COOKIE, deviceOf, setSessionCookie, takeBrowserZone } from "../session.js";
import { issueFormToken, requireFormToken, safeNext } from "./auth.js";

/** The forms of the page, each a section with this id. */
type Part = "totp" | "codes" | "disable" | "passkeys" | "passkey-remove";
const PARTS: readonly Part[] = ["totp", "codes", "disable", "passkeys", "passkey-remove"];

/** Registers the two-factor pages. */
export function registerTwoFactorPages(app: FastifyInstance, web: WebContext): void {
  const enrolling = { whileEnrolling: true };
  registerPage(app, web, "/account/two-factor", { GET: (page) => showSetup(web, page) }, enrolling);
  registerPage(
    app,
    web,
    "/account/two-factor/start",
    { POST: (page) => attempt(web, page, "totp", () => startTotpEnrolment(web, page.actor)) },
    enrolling,
  );
  registerPage(
    app,
    web,
    "/account/two-factor/confirm",
    {
      POST: (page) =>
        attempt(
          web,
          page,
          "totp",
          () => confirmTotpEnrolment(web, page.actor, { code: field(page, "code"), ...origin(web, page) }),
          (codes) => showCodes(page, codes),
        ),
    },
    enrolling,
  );
  registerPage(app, web, "/account/two-factor/recovery-codes", {
    POST: (page) =>
      attempt(
        web,
        page,
        "codes",
        () => regenerateRecoveryCodes(web, page.actor, { proof: field(page, "proof"), ...origin(web, page) }),
        (codes) => showCodes(page, codes),
      ),
  });
  registerPage(app, web, "/account/two-factor/disable", {
    POST: (page) =>
      attempt(web, page, "disable", () =>
        disableTwoFactor(web, page.actor, { proof: field(page, "proof"), ...origin(web, page) }),
      ),
  });
  // A passkey counts as the second factor a requirement asks for: adding one is open while enrolling.
  registerPage(
    app,
    web,
    "/account/passkeys/add",
    {
      POST: (page) =>
        attempt(web, page, "passkeys", () =>
          addPasskey(web, page.actor, {
            name: field(page, "name"),
            response: field(page, "response"),
            binding: bindingOf("session", page.sessionToken),
            ...origin(web, page),
          }),
        ),
    },
    enrolling,
  );
  registerPage(app, web, "/account/passkeys/remove", {
    POST: (page) =>
      attempt(web, page, "passkey-remove", () =>
        removePasskey(web, page.actor, {
          id: passkeyId(field(page, "passkey")),
          proof: field(page, "proof"),
          ...origin(web, page),
        }),
      ),
  });
  registerPublicPage(app, web, "/signin/second-factor", {
    GET: (page) => showSecondStep(web, page),
    POST: (page) => takeSecondStep(web, page),
  });
  registerPublicPage(app, web, "/signin/second-factor/passkey", { POST: (page) => takeSecondStep(web, page, true) });
}

/** A passkey's id as a form names it; anything else names none (PASSKEY_NOT_FOUND). */
function passkeyId(text: string): number {
  return /^[0-9]{1,15}$/.test(text) ? Number(text) : 0;
}

function field(page: PublicPageRequest, name: string): string {
  return page.form.get(name) ?? "";
}

function origin(web: WebContext, page: PublicPageRequest) {
  return { address: web.clientAddress(page.request), device: deviceOf(page.request) };
}

/**
 * Runs a form's change: then `done` shows what it made (the recovery codes), or back to the setup
 * page saying so; refused, the setup page again with why (and its status), nothing changed.
 */
async function attempt<T>(
  web: WebContext,
  page: PageRequest,
  part: Part,
  change: () => Promise<T>,
  done?: (result: T) => FastifyReply,
): Promise<FastifyReply> {
  let result: T;
  try {
    result = await change();
  } catch (error) {
    if (!(error instanceof DomainError) || error.code === "CSRF_TOKEN_INVALID" || error.code === "SIGNED_OUT")
      throw error;
    if (error instanceof TooManyRequestsError) page.reply.header("retry-after", String(error.retryAfterSeconds));
    const message = errorText(page.chrome.lang, error.code, error.message);
    return showSetup(web, page, { part, message }, toErrorReply(error).status);
  }
  return done ? done(result) : page.redirect(`/account/two-factor?saved=${part}#${part}`);
}

/** The recovery codes, shown this once (never kept by a cache). */
function showCodes(page: PageRequest, codes: readonly string[]) {
  page.reply.header("cache-control", "no-store");
  return page.render("two-factor-codes", {
    title: page.chrome.t("twoFactor.codesTitle"),
    section: "account",
    codes: codes.map(formatRecoveryCode),
  });
}

async function showSetup(web: WebContext, page: PageRequest, refusal?: { part: Part; message: string }, status = 200) {
  const state = await twoFactorStatus(web, page.actor.user.id);
  const pending = state.totpOn ? undefined : await pendingTotpEnrolment(web, page.actor);
  const saved = queryValue(page.query, "saved");
  const passkeys = await listPasskeys(web, page.actor.user.id);
  const passkeyOptions = await registrationOptions(web, page.actor, bindingOf("session", page.sessionToken));
  page.reply.header("cache-control", "no-store");
  return page.render(
    "two-factor",
    {
      title: page.chrome.t("twoFactor.title"),
      section: "account",
      state,
      pending: pending && {
        secret: pending.secret.replace(/(.{4})(?=.)/g, "$1 "),
        qr: await QRCode.toString(pending.uri, { type: "svg", margin: 2, errorCorrectionLevel: "M" }),
      },
      saved: refusal ? undefined : PARTS.find((p) => p === saved),
      refusal,
      passkeys,
      passkeyOptions: JSON.stringify(passkeyOptions),
      email: page.actor.user.email,
    },
    status,
  );
}

/** The second step's form: the person the password named, a code field. Without a live step, back to sign-in. */
async function showSecondStep(
  web: WebContext,
  page: PublicPageRequest,
  shown: { error?: string; status?: number } = {},
) {
  const pending = page.request.cookies[SECOND_STEP_COOKIE];
  const user = await pendingUser(web, "sign-in", pending, "");
  if (!user || pending === undefined) return page.redirect("/signin");
  const state = await twoFactorStatus(web, user.id);
  const passkeyOptions =
    state.passkeys > 0
      ? JSON.stringify(await authenticationOptions(web, "second-factor", bindingOf("second-step", pending), user.id))
      : undefined;
  page.reply.header("cache-control", "no-store");
  return page.render(
    "second-factor",
    {
      title: page.chrome.t("secondStep.title"),
      signinCsrf: issueFormToken(web, page),
      next: safeNext(queryValue(page.query, "next") ?? page.form.get("next") ?? undefined),
      email: user.email,
      error: shown.error,
      totpOn: state.totpOn,
      passkeyOptions,
    },
    shown.status ?? 200,
  );
}

/** The second step's answer: a code, or (`withPasskey`) a passkey's. */
async function takeSecondStep(web: WebContext, page: PublicPageRequest, withPasskey = false) {
  requireFormToken(page);
  const pending = page.request.cookies[SECOND_STEP_COOKIE];
  const user = await pendingUser(web, "sign-in", pending, "");
  if (!user || pending === undefined) return page.redirect("/signin?expired=1");
  try {
    const { started } = withPasskey
      ? await completeSignInWithPasskey(web, user, {
          response: field(page, "response"),
          binding: bindingOf("second-step", pending),
          ...origin(web, page),
        })
      : await completeSignIn(web, user, { code: field(page, "code"), ...origin(web, page) });
    setSessionCookie(web, page.reply, started.token);
    await takeBrowserZone(web, page.reply, user.id, page.form.get("timeZone") ?? undefined);
    page.reply.clearCookie(SECOND_STEP_COOKIE, { path: "/" });
    page.reply.clearCookie(SIGNIN_COOKIE, { path: "/" });
    return page.redirect(safeNext(page.form.get("next") ?? undefined));
  } catch (error) {
    if (!(error instanceof DomainError) || error.code === "CSRF_TOKEN_INVALID") throw error;
    if (error instanceof TooManyRequestsError) page.reply.header("retry-after", String(error.retryAfterSeconds));
    const message = errorText(page.chrome.lang, error.code, error.message);
    return showSecondStep(web, page, { error: message, status: toErrorReply(error).status });
  }
}
