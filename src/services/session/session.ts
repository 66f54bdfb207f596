// Web sign-in sessions: a random token in a cookie, its hash and the CSRF token in the database,
// so that every server process recognises every session.
import { generateSecret, hashToken } from "../../auth/token.js";
import { type AuditEntry, personActor, userTarget } from "../../domain/audit.js";
import { SESSION_LIFETIME_MS, type Session, renewedExpiry } from "../../domain/session.js";
import type { User } from "../../domain/user.js";
import { recordAudit } from "../audit/audit-log.js";
import type { ServiceContext } from "../context.js";

/** A new session and the token its cookie carries (never stored). */
export interface StartedSession {
  readonly token: string;
  readonly session: Session;
  /** The browser's new device cookie value, after a sign-in with a password. */
  readonly device?: string;
}

/** The audit row of a sign-in that opens a session: the person, from `address`, and how (`details`). */
export function signInEntry(
  user: User,
  address: string | undefined,
  details: Readonly<Record<string, unknown>>,
): AuditEntry {
  return { action: "sign-in", actor: personActor(user, address), target: userTarget(user), details };
}

/**
 * Opens a session for a person whose identity is already proven (signed in, or an account they
 * just made), with `audit`'s row in the same transaction when given. Expired sessions are swept
 * on the way.
 */
export async function openSession(ctx: ServiceContext, user: User, audit?: AuditEntry): Promise<StartedSession> {
  const token = generateSecret();
  const now = ctx.clock.now();
  const session: Omit<Session, "id" | "preferences" | "siteAdmin"> = {
    user,
    csrf: generateSecret(),
    createdAt: now,
    expiresAt: now + SESSION_LIFETIME_MS,
  };
  await ctx.store.transaction(async (tx) => {
    await tx.sessions.removeExpired(now);
    await tx.sessions.insert({
      tokenHash: hashToken(token),
      userId: user.id,
      csrf: session.csrf,
      createdAt: now,
      expiresAt: session.expiresAt,
    });
    if (audit !== undefined) await recordAudit(tx, ctx.clock, audit);
  });
  const stored = await ctx.store.read((tx) => tx.sessions.findLive(hashToken(token), now));
  if (!stored) throw new Error("the session just written cannot be read back");
  return { token, session: stored };
}

/** The live session a cookie token names, extended when it is in daily use; undefined otherwise. */
export async function findSession(ctx: ServiceContext, token: string): Promise<Session | undefined> {
  const now = ctx.clock.now();
  const session = await ctx.store.read((tx) => tx.sessions.findLive(hashToken(token), now));
  if (!session) return undefined;
  const expiresAt = renewedExpiry(session, now);
  if (expiresAt === undefined) return session;
  await ctx.store.transaction((tx) => tx.sessions.extend(session.id, expiresAt));
  return { ...session, expiresAt };
}

/** Ends the session (signing out); a token that names none changes nothing. */
export async function endSession(ctx: ServiceContext, token: string): Promise<void> {
  await ctx.store.transaction((tx) => tx.sessions.remove(hashToken(token)));
}
