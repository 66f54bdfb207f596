// The one place accounts are made: the sign-up page (signup.ts), an accepted invitation
// (member/invitation.ts) and the operator's `kairan user add` (user-admin.ts) each check what
// they were given, then call insertAccount inside their own transaction; an import makes
// placeholders for the people of its files that have no account (insertPlaceholderAccount).
import type { ArchiveRow } from "../../domain/archive.js";
import { ValidationError } from "../../domain/errors.js";
import type { User } from "../../domain/user.js";
import type { Tx } from "../../store/store.js";

/** A new account's fields, already checked by its caller. */
export type NewAccount = Omit<User, "id"> & { readonly passwordHash: string };

/**
 * Inserts an account, refusing an address another account has.
 * @throws ValidationError EMAIL_TAKEN
 */
export async function insertAccount(tx: Tx, account: NewAccount, at: number): Promise<User> {
  if (await tx.users.findByEmail(account.email)) throw emailTaken(account.email);
  return tx.users.insert({ ...account, createdAt: at });
}

/** The error of an address that has an account already. */
export function emailTaken(email: string): ValidationError {
  return new ValidationError("EMAIL_TAKEN", `A user with the e-mail address ${email.slice(0, 40)} exists already.`);
}

/** A password hash no password matches (verifyPassword knows only `scrypt$...`). */
const NO_PASSWORD = "!placeholder";

/**
 * Inserts a disabled account that stands for a person of imported history (their posts keep an
 * author), marked as a placeholder: it cannot sign in, and gets no mail, until its person claims
 * it through an invitation (member/placeholder-claim.ts), or an operator enables it and its
 * person sets a password (`kairan user enable`, then a password reset).
 * @throws ValidationError EMAIL_TAKEN
 */
export async function insertPlaceholderAccount(tx: Tx, account: Omit<User, "id">, at: number): Promise<User> {
  const user = await insertAccount(tx, { ...account, passwordHash: NO_PASSWORD }, at);
  await tx.users.update(user.id, { disabledAt: at, placeholderAt: at });
  return user;
}

/**
 * Inserts the placeholder of an account a portable archive names (services/archive/): its row as
 * the archive carries it (name, address, reading, language, zone, creation time; its id when
 * `keepId` and the id is free), no password, disabled, claimable like any placeholder.
 */
export async function insertArchivedAccount(tx: Tx, row: ArchiveRow, keepId: boolean, at: number): Promise<number> {
  const account: Record<string, string | number | null> = {
    ...row,
    password_hash: NO_PASSWORD,
    disabled_at: at,
    placeholder_at: at,
  };
  if (!keepId) delete account.id;
  const made = await tx.archive.insertWithId("users", account);
  if (keepId) await tx.archive.continueIds("users");
  return made;
}

/**
 * Makes a placeholder its person's own account: their name, password and address, enabled, no
 * longer a placeholder (the claim through an invitation, member/placeholder-claim.ts).
 */
export async function claimPlaceholderAccount(
  tx: Tx,
  placeholderId: number,
  claim: { name: string; passwordHash: string; email: string },
): Promise<void> {
  await tx.users.update(placeholderId, { ...claim, disabledAt: null, placeholderAt: null });
}
