// A passkey ceremony's challenge: a token signed with the site's `passkey` key that names the
// ceremony, what it is bound to (the session, the sign-in form, the second step) and when it
// expires, plus 128 random bits. Nothing is stored when one is made (a page's GET writes nothing);
// the hash of one answered is stored until it would expire, so each is accepted once.
import { createHash, randomBytes } from "node:crypto";
import { hmac, signToken, verifyToken } from "../../auth/signed-token.js";
import { PASSKEY_CHALLENGE_MS, type PasskeyCeremony, passkeyChallengeInvalid } from "../../domain/passkey.js";
import type { Tx } from "../../store/store.js";
import type { ServiceContext } from "../context.js";
import { siteKey } from "../site-key.js";

/** A challenge as the browser signed it, opened: ready to be checked by the WebAuthn library and spent. */
export interface OpenedChallenge {
  /** base64url, exactly as in the browser's client data (what the library compares). */
  readonly challenge: string;
  readonly hash: string;
  readonly expiresAt: number;
}

/** What a challenge is bound to, as a claim: a kind and the SHA-256 of a secret the browser holds. */
export function bindingOf(kind: "session" | "sign-in-form" | "second-step", secret: string): string {
  return `${kind}:${createHash("sha256").update(secret).digest("base64url")}`;
}

/** A new challenge for `ceremony`, bound to `binding`, valid PASSKEY_CHALLENGE_MS. */
export async function newChallenge(ctx: ServiceContext, ceremony: PasskeyCeremony, binding: string): Promise<string> {
  const key = await siteKey(ctx, "passkey");
  const nonce = randomBytes(16).toString("base64url");
  return signToken(key, `passkey:${ceremony}`, [binding, nonce], ctx.clock.now() + PASSKEY_CHALLENGE_MS);
}

/**
 * The challenge of the browser's client data, if it is a live one of ours for this ceremony and
 * binding (not yet spent: that is checked when it is spent).
 * @throws ValidationError PASSKEY_CHALLENGE_INVALID
 */
export async function openChallenge(
  ctx: ServiceContext,
  ceremony: PasskeyCeremony,
  binding: string,
  clientDataJSON: string,
): Promise<OpenedChallenge> {
  let challenge: unknown;
  try {
    challenge = (JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as { challenge?: unknown })
      .challenge;
  } catch {
    throw passkeyChallengeInvalid();
  }
  if (typeof challenge !== "string" || challenge.length > 1024) throw passkeyChallengeInvalid();
  const token = Buffer.from(challenge, "base64url").toString("utf8");
  const now = ctx.clock.now();
  const claims = verifyToken(await siteKey(ctx, "passkey"), `passkey:${ceremony}`, token, now);
  if (claims?.length !== 2 || claims[0] !== binding) throw passkeyChallengeInvalid();
  return {
    challenge,
    hash: createHash("sha256").update(token).digest("hex"),
    expiresAt: now + PASSKEY_CHALLENGE_MS,
  };
}

/** Spends the challenge inside the ceremony's transaction. @throws ValidationError PASSKEY_CHALLENGE_INVALID when answered already */
export async function spendChallenge(tx: Tx, opened: OpenedChallenge, now: number): Promise<void> {
  if (!(await tx.passkeys.useChallenge(opened.hash, opened.expiresAt, now))) throw passkeyChallengeInvalid();
}

/**
 * The WebAuthn user handle of an account: 16 bytes derived from its id under the site key, the
 * same for every passkey of the account (an authenticator keeps one of ours per account) and
 * saying nothing about the account to whoever reads it.
 */
export async function userHandleOf(ctx: ServiceContext, userId: number): Promise<Uint8Array<ArrayBuffer>> {
  const mac = hmac(await siteKey(ctx, "passkey"), "passkey:user-handle", String(userId)).subarray(0, 16);
  return new Uint8Array(mac);
}
