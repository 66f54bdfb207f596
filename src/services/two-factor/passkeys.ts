// Passkeys (WebAuthn) through @simplewebauthn/server: the answers that sign in, a passkey alone (a
// discoverable credential with user verification, both factors at once) or a passkey as the
// second step after a password. Adding and removing one: passkey-registration.ts.
// The relying party is the site's public address (`--public-url`): its host name is the RP ID and
// its origin the only one accepted. Each challenge is bound to its page's session or form and is
// accepted once (passkey-challenge.ts).
// @simplewebauthn/server is loaded at the first ceremony, not at every start (docs/architecture.md
// "Libraries of one feature load when first used").
import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { PASSKEY_PROMPT_MS, passkeyRejected } from "../../domain/passkey.js";
import type { User } from "../../domain/user.js";
import { type StartedSession, openSession, signInEntry } from "../session/session.js";
import { trustDevice } from "../session/sign-in.js";
import { openChallenge, newChallenge, spendChallenge, userHandleOf } from "./passkey-challenge.js";
import { parseAuthentication } from "./passkey-response.js";
import { type Origin, type TwoFactorContext } from "./two-factor.js";

/** The two-factor services' context and the site's public address (the relying party). */
export type PasskeyContext = TwoFactorContext & { readonly baseUrl: () => string };

/** The relying party: the public address's host name and origin. */
export function relyingParty(ctx: Pick<PasskeyContext, "baseUrl">): { id: string; origin: string } {
  const url = new URL(ctx.baseUrl());
  return { id: url.hostname, origin: url.origin };
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
  const { generateAuthenticationOptions } = await import("@simplewebauthn/server");
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
  const { verifyAuthenticationResponse } = await import("@simplewebauthn/server");
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
