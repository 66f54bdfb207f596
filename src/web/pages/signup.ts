// Pages for people without an account: the sign-up page (`/signup`), open only when the site's
// sign-up policy is `open` or `domains` (the settings, else `--allow-signup`), and an invitation's
// link (`/join/1:m/SECRET`), where the invited address's holder makes an account and joins at once
// (the invitation is the permission, under every policy but `closed`), or, having one, signs in
// and accepts; or, for a link that hands over an imported placeholder, sets that account up.
import type { FastifyInstance } from "fastify";
import type { User } from "../../domain/user.js";
import { ValidationError } from "../../domain/errors.js";
import { formatPair } from "../../domain/item-id.js";
import { requireSignupOpen, signupPageOpen } from "../../domain/signup.js";
import { readSiteSettings } from "../../services/settings/site-settings.js";
import { joinWithNewAccount, readInvitationLink } from "../../services/member/invitation.js";
import { openSession } from "../../services/session/session.js";
import { claimPlaceholder, handsOverPlaceholder } from "../../services/member/placeholder-claim.js";
import { claimAddressTaken, claimSignedIn } from "../../domain/placeholder.js";
import { signUp } from "../../services/account/signup.js";
import { errorText } from "../i18n/i18n.js";
import { type PublicPageRequest, type WebContext, pathPair, registerPublicPage } from "../page.js";
import { setSessionCookie, signedInOf, takeBrowserZone } from "../session.js";
import { issueFormToken, requireFormToken } from "./auth.js";

/** `/signup` and `/join/:member/:secret`. */
export function registerSignupPages(app: FastifyInstance, web: WebContext): void {
  registerPublicPage(app, web, "/signup", {
    async GET(page) {
      if (!signupPageOpen(await readSiteSettings(web))) requireSignupOpen(false);
      if (await signedInOf(web, page.request)) return page.redirect("/");
      return signupForm(web, page, { name: "", email: "" });
    },
    async POST(page) {
      requireFormToken(page);
      const values = { name: page.form.get("name") ?? "", email: page.form.get("email") ?? "" };
      try {
        const user = await signUp(web, {
          ...values,
          password: page.form.get("password") ?? "",
          address: web.clientAddress(page.request),
          timeZone: page.form.get("timeZone") ?? undefined,
        });
        return signInAs(web, page, user, "/");
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        return signupForm(web, page, values, errorText(page.chrome.lang, error.code, error.message));
      }
    },
  });
  registerPublicPage(app, web, "/join/:member/:secret", {
    GET: (page) => joinPage(web, page, { name: "" }),
    async POST(page) {
      requireFormToken(page);
      const name = page.form.get("name") ?? "";
      try {
        const taking = {
          ...linkOf(page),
          name,
          password: page.form.get("password") ?? "",
          address: web.clientAddress(page.request),
        };
        // A link that hands over an imported placeholder sets that account up instead of a new one.
        const signedIn = (await signedInOf(web, page.request)) !== undefined;
        const { user, invitation } = (await handsOverPlaceholder(web, taking.memberId))
          ? await claimPlaceholder(web, { ...taking, signedIn })
          : await joinWithNewAccount(web, taking);
        return signInAs(web, page, user, `/g/${formatPair(invitation.groupId)}/board`);
      } catch (error) {
        if (!(error instanceof ValidationError) || error.code === "INVITATION_EXPIRED") throw error;
        return joinPage(web, page, { name }, errorText(page.chrome.lang, error.code, error.message));
      }
    },
  });
}

function linkOf(page: PublicPageRequest): { memberId: number; secret: string } {
  return { memberId: pathPair(page, "member"), secret: page.params.secret ?? "" };
}

/**
 * The new account is signed in at once: it proved its password by choosing it. It takes the
 * browser's zone (an invitation's new or handed-over account has none yet).
 */
async function signInAs(web: WebContext, page: PublicPageRequest, user: User, next: string) {
  const started = await openSession(web, user);
  setSessionCookie(web, page.reply, started.token);
  await takeBrowserZone(web, page.reply, user.id, page.form.get("timeZone") ?? undefined);
  return page.redirect(next);
}

function signupForm(web: WebContext, page: PublicPageRequest, values: { name: string; email: string }, error?: string) {
  return page.render(
    "signup",
    {
      title: page.chrome.t("signup.title"),
      formCsrf: issueFormToken(web, page),
      action: page.chrome.u("/signup"),
      values,
      error,
    },
    error === undefined ? 200 : 400,
  );
}

async function joinPage(web: WebContext, page: PublicPageRequest, values: { name: string }, error?: string) {
  const link = linkOf(page);
  const view = await readInvitationLink(web, link);
  // The imported account's name is offered as the name to keep (or change).
  if (view.invitation.claimName !== null && values.name === "" && error === undefined)
    values = { name: view.invitation.claimName };
  const signedIn = await signedInOf(web, page.request);
  const here = `/join/${formatPair(link.memberId)}/${encodeURIComponent(link.secret)}`;
  return page.render(
    "join",
    {
      title: `${page.chrome.t("join.title")} · ${view.invitation.groupName}`,
      invitation: view.invitation,
      accountExists: view.accountExists,
      claim: view.invitation.claimName ?? undefined,
      claimSignedIn: errorText(page.chrome.lang, "CLAIM_SIGNED_IN", claimSignedIn().message),
      claimTaken: errorText(page.chrome.lang, "CLAIM_ADDRESS_TAKEN", claimAddressTaken(view.invitation.email).message),
      // Under the `closed` policy an invitation lets only an existing account join.
      mayCreate: (await readSiteSettings(web)).signupPolicy !== "closed",
      signedInAs: signedIn?.session.user.email,
      sessionCsrf: signedIn?.session.csrf,
      acceptAction: page.chrome.u(`/invitations/${formatPair(link.memberId)}/accept`),
      formCsrf: issueFormToken(web, page),
      action: page.chrome.u(here),
      // Back to this page once signed in, to accept (the log redacts the secret in `next`).
      signinHref: page.chrome.u(`/signin?${new URLSearchParams({ next: here }).toString()}`),
      homeHref: page.chrome.u("/"),
      values,
      error,
    },
    error === undefined ? 200 : 400,
  );
}
