// The browser side of sessions: the cookies, and who a page request comes from.
import type { FastifyReply, FastifyRequest } from "fastify";
import { type CookieSerializeOptions, fastifyCookie } from "@fastify/cookie";
import type { Actor, Application } from "../domain/access.js";
import { DEVICE_TRUST_MS, SESSION_LIFETIME_MS, type Session } from "../domain/session.js";
import type { Context } from "../context.js";
import { browserTimeZone } from "../domain/user.js";
import { adoptBrowserZone } from "../services/account/time-zone.js";
import { findSession } from "../services/session/session.js";

/** The session cookie: a random token; the database holds its hash. */
export const SESSION_COOKIE = "kairan_session";
/**
 * The device cookie (sign-in throttling, OWASP's device cookies): a random token, renewed at each
 * sign-in with a password; the database holds its hash with the accounts that signed in with it.
 */
export const DEVICE_COOKIE = "kairan_device";
/** The sign-in form's CSRF cookie (double submit: there is no session yet to keep a token in). */
export const SIGNIN_COOKIE = "kairan_signin";
/** Between the password and the second factor: a signed token naming the account for 10 minutes. */
export const SECOND_STEP_COOKIE = "kairan_second_step";
/** The browser's time zone offered to an account in another one (pages/zone-offer.ts), until answered. */
export const ZONE_OFFER_COOKIE = "kairan_zone_offer";

/**
 * The web interface acts for the signed-in person with everything they may do themselves: it
 * is not a third-party application, so no access level of one limits it.
 */
export const WEB_APP: Application = Object.freeze({ id: 0, name: "Kairan web", consumerKey: "", accessLevel: "Z" });

/** The person a page request comes from. */
export interface SignedIn {
  readonly session: Session;
  readonly actor: Actor;
  readonly token: string;
}

/** Cookie attributes: HttpOnly, SameSite=Lax, Secure when the public URL is https. */
export function cookieOptions(context: Context, maxAgeMs: number): CookieSerializeOptions {
  return {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: context.config.publicUrl?.startsWith("https://") ?? false,
    maxAge: Math.floor(maxAgeMs / 1000),
  };
}

/** The live session of the request's cookie, if any. */
export async function signedInOf(context: Context, request: FastifyRequest): Promise<SignedIn | undefined> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return undefined;
  const session = await findSession(context, token);
  return session && { session, token, actor: { user: session.user, app: WEB_APP } };
}

/**
 * The person of the request's session cookie and the session's id, read from the raw header: for
 * the API's live stream (same-origin EventSource), which is served outside the web's scope and its
 * cookie parser, and ends when the session does.
 */
export async function sessionActorOf(
  context: Context,
  request: FastifyRequest,
): Promise<{ readonly actor: Actor; readonly sessionId: number } | undefined> {
  const token = fastifyCookie.parse(request.headers.cookie ?? "")[SESSION_COOKIE];
  if (!token) return undefined;
  const session = await findSession(context, token);
  return session && { actor: { user: session.user, app: WEB_APP }, sessionId: session.id };
}

/** Sets the session cookie for a new session. */
export function setSessionCookie(context: Context, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(context, SESSION_LIFETIME_MS));
}

/** The device cookie a request presents, read from the raw header (the authorize page is outside the web's cookie parser). */
export function deviceOf(request: FastifyRequest): string | undefined {
  return fastifyCookie.parse(request.headers.cookie ?? "")[DEVICE_COOKIE];
}

/** Sets the device cookie to a browser's new device token (as a raw header: the authorize page has no cookie plugin). */
export function setDeviceCookie(context: Context, reply: FastifyReply, token: string): void {
  const { secure, ...options } = cookieOptions(context, DEVICE_TRUST_MS);
  reply.header("set-cookie", fastifyCookie.serialize(DEVICE_COOKIE, token, { ...options, secure: secure === true }));
}

/** Removes the session cookie. */
export function clearSessionCookie(context: Context, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { ...cookieOptions(context, 0), maxAge: 0 });
}

/**
 * After a sign-in: the zone the form's script reported (its hidden `timeZone`) becomes the
 * account's when it has none, and is offered (a cookie until answered) when it has another.
 */
export async function takeBrowserZone(
  context: Context,
  reply: FastifyReply,
  userId: number,
  reported: string | undefined,
): Promise<void> {
  const offer = await adoptBrowserZone(context, userId, reported);
  if (offer !== undefined) reply.setCookie(ZONE_OFFER_COOKIE, offer, cookieOptions(context, SESSION_LIFETIME_MS));
}

/** The zone to offer on this request's page: the cookie's, when it is a zone other than the page's. */
export function offeredZone(request: FastifyRequest, pageZone: string): string | undefined {
  const zone = browserTimeZone(request.cookies[ZONE_OFFER_COOKIE]);
  return zone === pageZone ? undefined : zone;
}
