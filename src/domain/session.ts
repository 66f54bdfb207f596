import type { Preferences, User } from "./user.js";

/** A signed-in browser: who, the token its forms carry, and until when. */
export interface Session {
  readonly id: number;
  readonly user: User;
  /** The language and time zone its pages are shown in, as the person chose them. */
  readonly preferences: Preferences;
  /** Whether the person holds the site administrator's role (read with the session, so a change applies at once). */
  readonly siteAdmin: boolean;
  /** The CSRF token of this session's forms (synchronizer token pattern). */
  readonly csrf: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long a session lasts without use; each day of use pushes the end out again. */
export const SESSION_LIFETIME_MS = 30 * DAY_MS;

/** How long a browser stays trusted for an account's sign-in (its device cookie) after it last signed in to it. */
export const DEVICE_TRUST_MS = 180 * DAY_MS;

/**
 * A session is extended at most once a day (one write per day of use, not one per page), to
 * a full lifetime from now.
 */
export function renewedExpiry(session: Pick<Session, "expiresAt">, now: number): number | undefined {
  return session.expiresAt - now < SESSION_LIFETIME_MS - DAY_MS ? now + SESSION_LIFETIME_MS : undefined;
}

/** Where a token came from: issued by the person (CLI, settings page) or to an application they authorized. */
export type TokenOrigin = "personal" | "oauth";

/** A live token of one user as the settings page lists it (never the token itself). */
export interface UserToken {
  readonly id: number;
  readonly appId: number;
  readonly appName: string;
  readonly appLevel: string;
  readonly label: string;
  readonly origin: TokenOrigin;
  readonly createdAt: number;
}
