// TOTP (RFC 6238) through the otpauth library: enrolment (a pending secret, on once a code from it
// is typed), checking a code within one step either side, each step accepted once per account.
// The secret is sealed under a site key in the database and shown only while enrolment is pending.
import { Secret, TOTP } from "otpauth";
import { open, seal } from "../../auth/secret-box.js";
import type { Clock } from "../../clock.js";
import {
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  TOTP_SECRET_BYTES,
  TOTP_WINDOW,
  asTotpCode,
  totpStep,
} from "../../domain/two-factor.js";
import type { Tx } from "../../store/store.js";
import type { ServiceContext } from "../context.js";
import { siteKey } from "../site-key.js";

/** What an authenticator app is given: the secret in base32 and its otpauth:// address (the QR code's content). */
export interface TotpEnrolment {
  readonly secret: string;
  readonly uri: string;
}

/** Whom a secret belongs to, as its seal binds it: a sealed value moved to another account does not open. */
const owner = (userId: number) => `totp:${userId}`;

function totpOf(secretBase32: string, label: string, issuer: string): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new random secret, sealed for the account. */
export async function newSealedSecret(ctx: ServiceContext, tx: Tx, userId: number): Promise<string> {
  const secret = new Secret({ size: TOTP_SECRET_BYTES }).base32;
  return seal(await siteKey(ctx, "totp-secret", tx), owner(userId), secret);
}

/** The base32 secret of a sealed value; throws when it cannot be opened (another site's key, an altered row). */
export async function openSecret(ctx: ServiceContext, userId: number, sealed: string): Promise<string> {
  const secret = open(await siteKey(ctx, "totp-secret"), owner(userId), sealed);
  if (secret === undefined) throw new Error(`the TOTP secret of user ${userId} cannot be opened with this site's key`);
  return secret;
}

/** The enrolment an app is shown: its secret and address, labelled with the account and the site. */
export function enrolmentOf(secret: string, email: string, siteName: string): TotpEnrolment {
  return { secret, uri: totpOf(secret, email, siteName).toString() };
}

/** The time step a typed code belongs to (within one step of now), or undefined when it matches none. */
export function matchingStep(secret: string, typed: string, clock: Clock): number | undefined {
  const code = asTotpCode(typed);
  if (code === undefined) return undefined;
  const now = clock.now();
  const delta = totpOf(secret, "", "").validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  return delta === null ? undefined : totpStep(now) + delta;
}
