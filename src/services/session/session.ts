// Web sign-in sessions: a random token in a cookie, its hash and the CSRF token in the database,
// so that every server process recognises every session.
import { generateSecret, hashToken } from "../../auth/token.js";
import { SESSION_LIFETIME_MS, type Session, renewedExpiry } from "../../domain/session.js";
import type { User } from "../../domain/user.js";
import type { ServiceContext, SignInContext } from "../context.js";
import { type SignInAttempt, signInThrottled, trustDevice } from "./sign-in.js";

/** A new session and the token its cookie carries (never stored). */
export interface StartedSession {
  readonly token: string;
  readonly session: Session;
  /** The browser's new device cookie value, after a sign-in with a password. */
  readonly device?: string;
}

/**
 * Signs in with e-mail address and password and opens a session; undefined when they are wrong
 * (both answers take the password-hashing time). The same throttling as the OAuth sign-in page
 * counts the failures. Expired sessions are swept on the way.
 * @throws TooManyRequestsError SIGN_IN_THROTTLED
 */
export async function startSession(ctx: SignInContext, attempt: SignInAttempt): Promise<StartedSession | undefined> {
  const user = await signInThrottled(ctx, attempt);
  if (!user) return undefined;
  const started = await openSession(ctx, user);
  return { ...started, device: await trustDevice(ctx, user.id, attempt.device) };
}

/**
 * Opens a session for a person whose identity is already proven (signed in, or an account they
 * just made). Expired sessions are swept on the way.
 */
export async function openSession(ctx: ServiceContext, user: User): Promise<StartedSession> {
  const token = generateSecret();
  const now = ctx.clock.now();
  const session: Omit<Session, "id" | "preferences"> = {
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
