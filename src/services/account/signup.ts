// The sign-up page: a person makes their own account, when the operator allows it.
import { hashPassword } from "../../auth/password.js";
import { checkAccountDraft, requireSignupOpen } from "../../domain/signup.js";
import type { User } from "../../domain/user.js";
import type { SignupContext } from "../member/invitation.js";
import { insertAccount } from "./account-write.js";

/**
 * Makes an account from what its holder typed.
 * @throws ForbiddenError SIGNUP_CLOSED; ValidationError EMAIL_TAKEN, and as checkAccountDraft
 */
export async function signUp(
  ctx: SignupContext,
  input: { name: string; email: string; password: string },
): Promise<User> {
  requireSignupOpen(ctx.config.allowSignup);
  const draft = checkAccountDraft(input);
  const passwordHash = await hashPassword(draft.password);
  const account = { name: draft.name, email: draft.email, familyKana: "", givenKana: "", passwordHash };
  return ctx.store.transaction((tx) => insertAccount(tx, account, ctx.clock.now()));
}
