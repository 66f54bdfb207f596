// The sign-up page: a person makes their own account, when the site's sign-up policy lets them
// (open, or open to the listed domains; the policy is read afresh, so a change applies at once).
import { hashPassword } from "../../auth/password.js";
import { personActor, userTarget } from "../../domain/audit.js";
import { checkAccountDraft, requireMayOpenlySignUp } from "../../domain/signup.js";
import { type User, browserTimeZone } from "../../domain/user.js";
import { recordAudit } from "../audit/audit-log.js";
import { auditRefusals } from "../audit/refusal.js";
import type { SignupContext } from "../member/invitation.js";
import { readSiteSettings } from "../settings/site-settings.js";
import { insertAccount } from "./account-write.js";

/**
 * Makes an account from what its holder typed, from the client `address` (the audit log's), in
 * the time zone the browser reported (when it is one).
 * @throws ForbiddenError SIGNUP_CLOSED; ValidationError SIGNUP_DOMAIN_REFUSED, EMAIL_TAKEN, and as checkAccountDraft
 */
export async function signUp(
  ctx: SignupContext,
  input: { name: string; email: string; password: string; address?: string; timeZone?: string },
): Promise<User> {
  const tried = {
    action: "user.create",
    // Before the account exists, the address typed names whoever tried.
    actor: { label: input.email.trim().toLowerCase(), ...addressOf(input) },
    details: { via: "signup" },
  } as const;
  // A form filled wrong is the form's business; what the policy or an existing account refuses is logged.
  const draft = checkAccountDraft(input);
  return auditRefusals(ctx, tried, async () => {
    requireMayOpenlySignUp(await readSiteSettings(ctx), draft.email);
    const passwordHash = await hashPassword(draft.password);
    const account = { name: draft.name, email: draft.email, familyKana: "", givenKana: "", passwordHash };
    return ctx.store.transaction(async (tx) => {
      const user = await insertAccount(tx, account, ctx.clock.now());
      // The browser's zone, when its script reported one: the new account's pages start in it.
      const zone = browserTimeZone(input.timeZone);
      if (zone !== undefined) await tx.users.update(user.id, { timeZone: zone });
      await recordAudit(tx, ctx.clock, {
        ...tried,
        actor: personActor(user, input.address),
        target: userTarget(user),
      });
      return user;
    });
  });
}

function addressOf(input: { address?: string }): { address?: string } {
  return input.address === undefined ? {} : { address: input.address };
}
