// Passkeys (WebAuthn) through @simplewebauthn/server: adding one from the account's two-factor
// page, removing one, and the answers that sign in: a passkey alone (a discoverable credential
// with user verification, both factors at once) or a passkey as the second step after a password.
// The relying party is the site's public address (`--public-url`): its host name is the RP ID and
// its origin the only one accepted. Each challenge is bound to its page's session or form and is
// accepted once (passkey-challenge.ts). Each change writes its audit row in its transaction.
import {
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { Actor } from "../../domain/access.js";
import { personActor, personLabel } from "../../domain/audit.js";
import { ConflictError, ForbiddenError, NotFoundError } from "../../domain/errors.js";
import {
  PASSKEYS_MAX,
  PASSKEY_PROMPT_MS,
  PASSKEY_RESPONSE_MAX,
  asPasskeyName,
  passkeyRejected,
} from "../../domain/passkey.js";
import type { User } from "../../domain/user.js";
import type { PasskeyRow } from "../../store/queries/passkeys.js";
import { recordAudit } from "../audit/audit-log.js";
import { type StartedSession, openSession, signInEntry } from "../session/session.js";
import { trustDevice } from "../session/sign-in.js";
import { readSiteSettings } from "../settings/site-settings.js";
import { openChallenge, newChallenge, spendChallenge, userHandleOf } from "./passkey-challenge.js";
import { twoFactorStatus } from "./status.js";
import { type Origin, type TwoFactorContext, proveIdentity } from "./two-factor.js";

/** The two-factor services' context and the site's public address (the relying party). */
export type PasskeyContext = TwoFactorContext & { readonly baseUrl: () => string };

/** A passkey as its owner's page lists it. */
export type PasskeySummary = Pick<PasskeyRow, "id" | "name" | "createdAt" | "lastUsedAt" | "multiDevice" | "backedUp">;

/** The relying party: the public address's host name and origin. */
export function relyingParty(ctx: Pick<PasskeyContext, "baseUrl">): { id: string; origin: string } {
  const url = new URL(ctx.baseUrl());
  return { id: url.hostname, origin: url.origin };
}

const target = (user: Pick<User, "id" | "name" | "email">) => ({
  kind: "user" as const,
  id: String(user.id),
  label: personLabel(user),
});

/** The account's passkeys, oldest first. */
export async function listPasskeys(ctx: PasskeyContext, userId: number): Promise<PasskeySummary[]> {
  const rows = await ctx.store.read((tx) => tx.passkeys.listOf(userId));
  return rows.map(({ id, name, createdAt, lastUsedAt, multiDevice, backedUp }) => ({
    id,
    name,
    createdAt,
    lastUsedAt,
    multiDevice,
    backedUp,
  }));
}

/**
 * What the browser is asked to create a passkey with: a discoverable credential with user
 * verification, none of the account's own again. `binding` ties the challenge to the session.
 */
export async function registrationOptions(
  ctx: PasskeyContext,
  actor: Actor,
  binding: string,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = relyingParty(ctx);
  const existing = await ctx.store.read((tx) => tx.passkeys.listOf(actor.user.id));
  return generateRegistrationOptions({
    rpName: (await readSiteSettings(ctx)).siteName,
    rpID: rp.id,
    userName: actor.user.email,
    userDisplayName: actor.user.name,
    userID: await userHandleOf(ctx, actor.user.id),
    challenge: await newChallenge(ctx, "register", binding),
    timeout: PASSKEY_PROMPT_MS,
    attestationType: "none",
    excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: [...passkey.transports] })),
    authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
  });
}

/**
 * Adds the passkey the browser created, named `name`.
 * @throws ValidationError PASSKEY_NAME_INVALID, PASSKEY_CHALLENGE_INVALID, PASSKEY_REJECTED;
 *   ConflictError PASSKEY_LIMIT, PASSKEY_ALREADY_REGISTERED
 */
export async function addPasskey(
  ctx: PasskeyContext,
  actor: Actor,
  input: { name: string; response: string; binding: string } & Origin,
): Promise<PasskeySummary> {
  const name = asPasskeyName(input.name);
  const response = parseRegistration(input.response);
  const opened = await openChallenge(ctx, "register", input.binding, response.response.clientDataJSON);
  const userId = actor.user.id;
  if ((await ctx.store.read((tx) => tx.passkeys.listOf(userId))).length >= PASSKEYS_MAX) throw limitReached();
  const rp = relyingParty(ctx);
  const verified = await verifyRegistrationResponse({
    response,
    expectedChallenge: opened.challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  }).catch(() => undefined);
  if (!verified?.verified) throw passkeyRejected();
  const info = verified.registrationInfo;
  return ctx.store.transaction(async (tx) => {
    const now = ctx.clock.now();
    await spendChallenge(tx, opened, now);
    if ((await tx.passkeys.listOf(userId)).length >= PASSKEYS_MAX) throw limitReached();
    const added = await tx.passkeys.insert({
      userId,
      credentialId: info.credential.id,
      publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
      counter: info.credential.counter,
      transports: info.credential.transports ?? [],
      multiDevice: info.credentialDeviceType === "multiDevice",
      backedUp: info.credentialBackedUp,
      name,
      createdAt: now,
    });
    if (!added)
      throw new ConflictError("PASSKEY_ALREADY_REGISTERED", "This passkey is registered already: nothing changed.");
    const row = await tx.passkeys.findByCredentialId(info.credential.id);
    if (!row) throw new Error("the passkey just added is not found");
    await recordAudit(tx, ctx.clock, {
      action: "passkey.add",
      actor: personActor(actor.user, input.address),
      target: target(actor.user),
      details: { passkey: row.id, name },
    });
    return { ...row };
  });
}

/**
 * Removes one of the account's passkeys, proven by a second factor's code or the password (as
 * turning TOTP off is). The last second factor of an account that must have one stays.
 * @throws NotFoundError PASSKEY_NOT_FOUND; ForbiddenError TWO_FACTOR_REQUIRED; ValidationError TWO_FACTOR_PROOF_WRONG;
 *   TooManyRequestsError SIGN_IN_THROTTLED
 */
export async function removePasskey(
  ctx: PasskeyContext,
  actor: Actor,
  input: { id: number; proof: string } & Origin,
): Promise<void> {
  const userId = actor.user.id;
  const passkey = (await ctx.store.read((tx) => tx.passkeys.listOf(userId))).find((p) => p.id === input.id);
  if (!passkey) throw notFound();
  const status = await twoFactorStatus(ctx, userId);
  if (status.required && !status.totpOn && status.passkeys <= 1)
    throw new ForbiddenError(
      "TWO_FACTOR_REQUIRED",
      "Two-factor sign-in is required for your account on this site: add another passkey or an authenticator app first.",
    );
  await proveIdentity(ctx, actor, input);
  await ctx.store.transaction(async (tx) => {
    if (!(await tx.passkeys.remove(userId, input.id))) throw notFound();
    await recordAudit(tx, ctx.clock, {
      action: "passkey.remove",
      actor: personActor(actor.user, input.address),
      target: target(actor.user),
      details: { passkey: passkey.id, name: passkey.name },
    });
  });
}

/**
 * What the browser is asked to sign with: for the sign-in, any passkey of this site the
 * authenticator holds (user verification required: it is both factors); for a second step, one
 * of the account's (`userId`).
 */
export async function authenticationOptions(
  ctx: PasskeyContext,
  ceremony: "sign-in" | "second-factor",
  binding: string,
  userId?: number,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const allowed = userId === undefined ? [] : await ctx.store.read((tx) => tx.passkeys.listOf(userId));
  return generateAuthenticationOptions({
    rpID: relyingParty(ctx).id,
    challenge: await newChallenge(ctx, ceremony, binding),
    timeout: PASSKEY_PROMPT_MS,
    userVerification: ceremony === "sign-in" ? "required" : "preferred",
    allowCredentials: allowed.map((passkey) => ({ id: passkey.credentialId, transports: [...passkey.transports] })),
  });
}

/**
 * Signs in with a passkey alone: a session for its (enabled) account, the device trusted as after
 * a password. @throws ValidationError PASSKEY_CHALLENGE_INVALID, PASSKEY_REJECTED
 */
export async function signInWithPasskey(
  ctx: PasskeyContext,
  input: { response: string; binding: string } & Origin,
): Promise<{ started: StartedSession; device: string }> {
  const user = await provePasskey(ctx, "sign-in", input);
  const device = await trustDevice(ctx, user.id, input.device);
  const audit = signInEntry(user, input.address, { via: "web", passkey: true });
  return { started: await openSession(ctx, user, audit), device };
}

/**
 * A passkey of `user` as the second factor after the password (sign-in, a password reset, the
 * OAuth authorize page). @throws ValidationError PASSKEY_CHALLENGE_INVALID, PASSKEY_REJECTED
 */
export async function checkPasskeySecondFactor(
  ctx: PasskeyContext,
  user: User,
  input: { response: string; binding: string } & Origin,
): Promise<void> {
  await provePasskey(ctx, "second-factor", input, user.id);
}

/** Checks an answer to an authentication challenge and spends it; the passkey's account. */
async function provePasskey(
  ctx: PasskeyContext,
  ceremony: "sign-in" | "second-factor",
  input: { response: string; binding: string },
  expectedUserId?: number,
): Promise<User> {
  const response = parseAuthentication(input.response);
  const opened = await openChallenge(ctx, ceremony, input.binding, response.response.clientDataJSON);
  const found = await ctx.store.read(async (tx) => {
    const passkey = await tx.passkeys.findByCredentialId(response.id);
    if (!passkey || (await tx.users.isDisabled(passkey.userId)) !== false) return undefined;
    const user = await tx.users.findById(passkey.userId);
    return user && { passkey, user };
  });
  // An unknown or removed passkey, another account's, a disabled account's: the same refusal.
  if (!found || (expectedUserId !== undefined && found.user.id !== expectedUserId)) throw passkeyRejected();
  const { passkey, user } = found;
  const handle = response.response.userHandle;
  if (
    handle !== undefined &&
    handle !== "" &&
    handle !== Buffer.from(await userHandleOf(ctx, user.id)).toString("base64url")
  )
    throw passkeyRejected();
  const rp = relyingParty(ctx);
  const verified = await verifyAuthenticationResponse({
    response,
    expectedChallenge: opened.challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: {
      id: passkey.credentialId,
      publicKey: new Uint8Array(Buffer.from(passkey.publicKey, "base64url")),
      counter: passkey.counter,
    },
    requireUserVerification: ceremony === "sign-in",
  }).catch(() => undefined);
  if (!verified?.verified) throw passkeyRejected();
  const { newCounter, credentialBackedUp } = verified.authenticationInfo;
  await ctx.store.transaction(async (tx) => {
    const now = ctx.clock.now();
    await spendChallenge(tx, opened, now);
    await tx.passkeys.markUsed(passkey.id, newCounter, credentialBackedUp, now);
  });
  return user;
}

/** The browser's answer to a creation, as the library reads it. @throws ValidationError PASSKEY_REJECTED */
function parseRegistration(text: string): RegistrationResponseJSON {
  const value = parseCredential(text);
  const response = value.response as Record<string, unknown>;
  if (typeof response.attestationObject !== "string") throw passkeyRejected();
  if (response.transports !== undefined && !isStringArray(response.transports)) throw passkeyRejected();
  return value as unknown as RegistrationResponseJSON;
}

/** The browser's answer to a request, as the library reads it. @throws ValidationError PASSKEY_REJECTED */
function parseAuthentication(text: string): AuthenticationResponseJSON {
  const value = parseCredential(text);
  const response = value.response as Record<string, unknown>;
  if (typeof response.authenticatorData !== "string" || typeof response.signature !== "string") throw passkeyRejected();
  if (response.userHandle !== undefined && response.userHandle !== null && typeof response.userHandle !== "string")
    throw passkeyRejected();
  if (response.userHandle === null) delete response.userHandle;
  return value as unknown as AuthenticationResponseJSON;
}

/** The fields both answers share, checked for shape (the library checks their content). */
function parseCredential(text: string): Record<string, unknown> & { response: { clientDataJSON: string } } {
  if (text.length === 0 || text.length > PASSKEY_RESPONSE_MAX) throw passkeyRejected();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw passkeyRejected();
  }
  if (!isRecord(value) || !isRecord(value.response)) throw passkeyRejected();
  const { id, rawId, type, response } = value;
  if (typeof id !== "string" || id.length > 1400 || typeof rawId !== "string" || type !== "public-key")
    throw passkeyRejected();
  if (typeof response.clientDataJSON !== "string") throw passkeyRejected();
  if (!isRecord(value.clientExtensionResults)) value.clientExtensionResults = {};
  return value as Record<string, unknown> & { response: { clientDataJSON: string } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function limitReached(): ConflictError {
  return new ConflictError("PASSKEY_LIMIT", `An account keeps at most ${PASSKEYS_MAX} passkeys: remove one first.`);
}

function notFound(): NotFoundError {
  return new NotFoundError("PASSKEY_NOT_FOUND", "There is no such passkey on your account.");
}
