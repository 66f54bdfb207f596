// The site administrator's rules: who may use the administration, and that the site always keeps
// one administrator who can still sign in (no one could grant the role again from the browser).
import { ForbiddenError, ValidationError } from "./errors.js";

/**
 * Asserts the person holds the site administrator's role.
 * @throws ForbiddenError ADMIN_REQUIRED
 */
export function requireSiteAdmin(isAdmin: boolean): void {
  if (!isAdmin) throw new ForbiddenError("ADMIN_REQUIRED", "Only a site administrator may do this.");
}

/**
 * Asserts that taking the role from `userId` (removing it, disabling or deleting the account)
 * leaves another active administrator; `activeAdminIds` are the administrators whose accounts are enabled.
 * `self`: the person asks it of their own account (the message speaks to them).
 * @throws ValidationError LAST_ADMIN
 */
export function requireNotLastAdmin(activeAdminIds: readonly number[], userId: number, self = false): void {
  if (activeAdminIds.includes(userId) && activeAdminIds.length <= 1)
    throw new ValidationError(
      "LAST_ADMIN",
      self
        ? "You are the site's last administrator: make another person an administrator first, then delete your account."
        : "This is the site's last administrator; make another person an administrator first.",
    );
}

/**
 * What a deleted account is called from then on: its topics, comments, tasks and files stay where
 * they were, under this name, and the address it held is free again.
 */
export const FORMER_MEMBER_NAME = "元メンバー (former member)";

/** The address a deleted account keeps (unique, and of a reserved domain no mail reaches). */
export function formerMemberEmail(userId: number): string {
  return `former-member-${userId}@deleted.invalid`;
}
