// Passkeys on the account's two-factor page: the list, the options that ask the browser to make
// one, adding the browser's answer, and removing one. Each change writes its audit row in its
// transaction; the challenge is the page's and is accepted once (passkey-challenge.ts).
// @simplewebauthn/server is loaded when first used (docs/architecture.md "Libraries of one feature
// load when first used").
import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/server";
import type { Actor } from "../../domain/access.js";
import { personActor, personLabel } from "../../domain/audit.js";
import { ConflictError, ForbiddenError, NotFoundError } from "../../domain/errors.js";
import { PASSKEYS_MAX, PASSKEY_PROMPT_MS, asPasskeyName, passkeyRejected } from "../../domain/passkey.js";
import type { User } from "../../domain/user.js";
import type { PasskeyRow } from "../../store/queries/passkeys.js";
import { recordAudit } from "../audit/audit-log.js";
import { readSiteSettings } from "../settings/site-settings.js";
import { openChallenge, newChallenge, spendChallenge, userHandleOf } from "./passkey-challenge.js";
import { parseRegistration } from "./passkey-response.js";
import { type PasskeyContext, relyingParty } from "./passkeys.js";
import { twoFactorStatus } from "./status.js";
import { type Origin, proveIdentity } from "./two-factor.js";

/** A passkey as its owner's page lists it. */
export type PasskeySummary = Pick<PasskeyRow, "id" | "name" | "createdAt" | "lastUsedAt" | "multiDevice" | "backedUp">;

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
  const { generateRegistrationOptions } = await import("@simplewebauthn/server");
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
  const { verifyRegistrationResponse } = await import("@simplewebauthn/server");
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

function limitReached(): ConflictError {
  return new ConflictError("PASSKEY_LIMIT", `An account keeps at most ${PASSKEYS_MAX} passkeys: remove one first.`);
}

function notFound(): NotFoundError {
  return new NotFoundError("PASSKEY_NOT_FOUND", "There is no such passkey on your account.");
}
