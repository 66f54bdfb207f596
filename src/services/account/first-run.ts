// The first run without the demo: while the database has no account, each server start makes a
// one-time setup link (printed on its standard output, only its hash stored) whose page creates
// the first account, the site's administrator. Once an account exists, every setup link is gone.
import { hashPassword } from "../../auth/password.js";
import { ACCOUNT_MAIL_LIMITS } from "../../domain/account-link.js";
import { personActor, userTarget } from "../../domain/audit.js";
import { ValidationError } from "../../domain/errors.js";
import { checkAccountDraft } from "../../domain/signup.js";
import type { User } from "../../domain/user.js";
import type { Tx } from "../../store/store.js";
import type { ServiceContext } from "../context.js";
import { recordAudit } from "../audit/audit-log.js";
import { insertAccount } from "./account-write.js";
import { issueLink, liveLink, useLink } from "./account-links.js";

/** A setup link: its secret (printed once, never stored) and its end. */
export interface FirstRunLink {
  readonly secret: string;
  readonly expiresAt: number;
}

/**
 * A new setup link when the database has no account yet; undefined when it has one. Earlier
 * links stay valid until they end (another process may have printed one). Runs at start, before
 * the blob store matters: it needs the store and the clock only.
 */
export async function beginFirstRun(ctx: Pick<ServiceContext, "store" | "clock">): Promise<FirstRunLink | undefined> {
  return ctx.store.transaction(async (tx) => {
    if (await tx.users.any()) return undefined;
    const link = { purpose: "setup" as const, userId: null, email: null, lifetimeMs: ACCOUNT_MAIL_LIMITS.setupMs };
    return issueLink(tx, link, ctx.clock.now());
  });
}

/** Whether the server still waits for its first account (the sign-in page then says how to make it). */
export async function needsSetup(ctx: ServiceContext): Promise<boolean> {
  return ctx.store.read(async (tx) => !(await tx.users.any()));
}

/**
 * Asserts a setup link may be followed now.
 * @throws NotFoundError LINK_NOT_FOUND; ValidationError LINK_USED, LINK_EXPIRED, SETUP_DONE
 */
export async function readSetup(ctx: ServiceContext, secret: string): Promise<void> {
  await ctx.store.read(async (tx) => {
    await requireNoAccount(tx);
    await liveLink(tx, "setup", secret, ctx.clock.now());
  });
}

/**
 * Creates the first account, marked as the site's administrator, through a setup link (used up,
 * with every other setup link).
 * @throws NotFoundError LINK_NOT_FOUND; ValidationError LINK_USED, LINK_EXPIRED, SETUP_DONE, PASSWORD_MISMATCH,
 *   and as checkAccountDraft
 */
export async function createFirstAdministrator(
  ctx: ServiceContext,
  input: { secret: string; name: string; email: string; password: string; repeated: string; address?: string },
): Promise<User> {
  const draft = checkAccountDraft(input);
  if (input.password !== input.repeated)
    throw new ValidationError("PASSWORD_MISMATCH", "The password and its repetition differ.");
  const passwordHash = await hashPassword(draft.password);
  return ctx.store.transaction(async (tx) => {
    const now = ctx.clock.now();
    await requireNoAccount(tx);
    await useLink(tx, "setup", input.secret, now);
    const account = { name: draft.name, email: draft.email, familyKana: "", givenKana: "", passwordHash };
    const user = await insertAccount(tx, account, now);
    await tx.users.update(user.id, { siteAdmin: true });
    await tx.accountTokens.removePurpose("setup");
    await recordAudit(tx, ctx.clock, {
      action: "user.create",
      actor: personActor(user, input.address),
      target: userTarget(user),
      details: { via: "setup", siteAdmin: true },
    });
    return user;
  });
}

/** @throws ValidationError SETUP_DONE */
async function requireNoAccount(tx: Tx): Promise<void> {
  if (await tx.users.any())
    throw new ValidationError("SETUP_DONE", "This server is set up already: sign in with your account.");
}
