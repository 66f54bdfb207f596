// The OAuth sign-in and approval pages (docs/api.md "OAuth"): authorize, out-of-band verifier, outcomes.
import type { AccessLevel } from "../../domain/access.js";
import { type SafeHtml, html, page } from "../layout.js";

/** What each access level lets the application do, in the words the person approves. */
const LEVEL_TEXT: Readonly<Record<AccessLevel, string>> = {
  read: "read your groups, boards, tasks and files (but not comments)",
  comments: "read your groups, boards, tasks, files and comments",
  write: "read and change your topics, comments and attachments",
  Z: "do everything you can do, including signing in with your password",
};

/** What the authorize form shows and carries. */
export interface AuthorizeForm {
  readonly appName: string;
  readonly level: AccessLevel;
  readonly token: string;
  readonly csrf: string;
  readonly email?: string;
  readonly error?: string;
}

/** The sign-in form: e-mail, password, Approve and Deny, the application's name and access level. */
export function authorizePage(form: AuthorizeForm): string {
  // The same error box as the sign-in page's, tied to the fields it is about.
  const error =
    form.error === undefined ? "" : html`<p class="notice notice-error" role="alert" id="error">${form.error}</p>`;
  const describedBy = form.error === undefined ? "" : html` aria-describedby="error"`;
  return page(
    `Allow ${form.appName}?`,
    html`<h1>Allow <strong>${form.appName}</strong> to use your Kairan account?</h1>
<p>Access level <strong id="access-level">${form.level}</strong>: it will be able to ${LEVEL_TEXT[form.level]}.</p>
${error}
<form method="post" action="/oauth/authorize" class="stack">
<input type="hidden" name="oauth_token" value="${form.token}">
<input type="hidden" name="csrf_token" value="${form.csrf}">
<p><label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="username" value="${form.email ?? ""}"${describedBy}></p>
<p><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password"></p>
<p class="buttons"><button type="submit" name="decision" value="approve" class="primary">Approve</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button></p>
</form>`,
  );
}

/** The account's second factors, as the second step offers them. */
export interface SecondFactorChoice {
  /** An authenticator app: the code field. */
  readonly totp: boolean;
  /** The passkey request (JSON for /static/passkeys.js), when the account has passkeys. */
  readonly passkeyOptions?: string | undefined;
}

/**
 * The second step, after a right password of an account with a second factor: a code, then
 * Approve or Deny; or Approve with one of the account's passkeys (with the script only).
 */
export function authorizeSecondStepPage(
  form: AuthorizeForm & { readonly pending: string },
  factors: SecondFactorChoice = { totp: true },
): string {
  const error =
    form.error === undefined ? "" : html`<p class="notice notice-error" role="alert" id="error">${form.error}</p>`;
  const describedBy = form.error === undefined ? "" : html` aria-describedby="error" aria-invalid="true"`;
  const help = factors.totp
    ? html`Type the six-digit code your authenticator app shows for ${form.email ?? ""}, or one of your recovery codes.`
    : html`Confirm with a passkey of ${form.email ?? ""}.`;
  const passkey =
    factors.passkeyOptions === undefined
      ? ""
      : html`<form method="post" action="/oauth/authorize" class="stack" id="second-step-passkey" data-passkey="get" data-passkey-options="${factors.passkeyOptions}" hidden>
<input type="hidden" name="oauth_token" value="${form.token}">
<input type="hidden" name="csrf_token" value="${form.csrf}">
<input type="hidden" name="second_step" value="${form.pending}">
<input type="hidden" name="decision" value="approve">
<input type="hidden" name="response" value="">
<div class="notice notice-error" role="alert" data-passkey-error hidden>No passkey was given (cancelled, or not supported here). Try again.</div>
<p><button type="submit" class="primary">Approve with a passkey</button></p>
</form>
<script src="/static/passkeys.js" defer></script>`;
  const codeForm = factors.totp
    ? html`<form method="post" action="/oauth/authorize" class="stack">
<input type="hidden" name="oauth_token" value="${form.token}">
<input type="hidden" name="csrf_token" value="${form.csrf}">
<input type="hidden" name="second_step" value="${form.pending}">
<p><label for="code">Code</label>
<input id="code" name="code" type="text" autocomplete="one-time-code" autocapitalize="off" spellcheck="false" maxlength="40"${describedBy}></p>
<p class="buttons"><button type="submit" name="decision" value="approve" class="primary">Approve</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button></p>
</form>`
    : html`<form method="post" action="/oauth/authorize" class="stack">
<input type="hidden" name="oauth_token" value="${form.token}">
<input type="hidden" name="csrf_token" value="${form.csrf}">
<p class="buttons"><button type="submit" name="decision" value="deny" formnovalidate>Deny</button></p>
</form>`;
  return page(
    `Allow ${form.appName}?`,
    html`<h1>Allow <strong>${form.appName}</strong> to use your Kairan account?</h1>
<p>Access level <strong id="access-level">${form.level}</strong>: it will be able to ${LEVEL_TEXT[form.level]}.</p>
<p id="second-step-help">Your account signs in in two steps. ${help}</p>
${error}
${passkey}
${codeForm}`,
  );
}

/** The out-of-band page: the person types the verifier into the application. */
export function verifierPage(appName: string, verifier: string): string {
  return page(
    "Access approved",
    html`<h1>You allowed ${appName} to use your account</h1>
<p>Enter this code in ${appName}:</p>
<p><code id="oauth_verifier">${verifier}</code></p>`,
  );
}

/** After Deny with no callback to return to. */
export function deniedPage(appName: string): string {
  return page("Access denied", html`<h1>Access denied</h1><p>${appName} was not given access to your account.</p>`);
}

/** A dead end: an unknown or expired link, a stale form. */
export function problemPage(title: string, message: string | SafeHtml): string {
  return page(title, html`<h1>${title}</h1><p>${message}</p>`);
}
