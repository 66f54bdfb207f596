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
