// OAuth 1.0a use cases: temporary credentials, the person's decision, and token credentials
// (three-legged exchange and xAuth). Signatures are checked before these run (auth/oauth-verify.ts).
import { randomBytes } from "node:crypto";
import { constantTimeEqual, OAuthProblem } from "../../auth/oauth1.js";
import { generateSecret, hashToken } from "../../auth/token.js";
import type { Application } from "../../domain/access.js";
import { type AuditEntry, personActor, userTarget } from "../../domain/audit.js";
import { LIMITS } from "../../domain/limits.js";
import type { TokenOrigin } from "../../domain/session.js";
import type { User } from "../../domain/user.js";
import type { TemporaryCredential } from "../../store/queries/oauth.js";
import type { TokenRepo } from "../../store/queries/tokens.js";
import { recordAudit } from "../audit/audit-log.js";
import type { ServiceContext } from "../context.js";
import { signInThrottled } from "../session/sign-in.js";
import { twoFactorStatus } from "../two-factor/status.js";
import type { TwoFactorContext } from "../two-factor/two-factor.js";

/** A token and its secret, handed to the client once. */
export interface IssuedCredentials {
  readonly token: string;
  readonly secret: string;
}

/**
 * Issues temporary credentials to `app`; `callback` is "oob" or an absolute http(s) URL.
 * @throws OAuthProblem parameter_rejected for any other callback
 */
export async function issueTemporaryCredentials(
  ctx: ServiceContext,
  input: { app: Application; callback: string },
): Promise<IssuedCredentials> {
  const { app, callback } = input;
  if (callback !== "oob" && !isHttpUrl(callback)) {
    throw new OAuthProblem("parameter_rejected", 'oauth_callback must be "oob" or an absolute http(s) URL');
  }
  const issued = { token: generateSecret(), secret: generateSecret() };
  const now = ctx.clock.now();
  await ctx.store.transaction(async (tx) => {
    await tx.temporaryCredentials.removeExpired(now);
    await tx.temporaryCredentials.insert({
      tokenHash: hashToken(issued.token),
      secret: issued.secret,
      appId: app.id,
      callback,
      csrf: randomBytes(24).toString("base64url"),
      createdAt: now,
      expiresAt: now + LIMITS.oauthTemporaryCredentialMs,
    });
  });
  return issued;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** The live temporary credential a token names, or undefined (unknown, expired or exchanged). */
export function findTemporaryCredential(ctx: ServiceContext, token: string): Promise<TemporaryCredential | undefined> {
  return ctx.store.read((tx) => tx.temporaryCredentials.findLive(hashToken(token), ctx.clock.now()));
}

/**
 * Records the person's approval (signed in on the authorize page from `address`, with its
 * `sign-in` audit row) and returns the verifier; undefined when already decided.
 */
export async function approve(
  ctx: ServiceContext,
  input: { credential: TemporaryCredential; user: User; address?: string },
): Promise<string | undefined> {
  const { credential, user } = input;
  const verifier = generateSecret();
  const done = await ctx.store.transaction(async (tx) => {
    const decided = await tx.temporaryCredentials.decide(credential.id, {
      status: "approved",
      userId: user.id,
      verifier,
    });
    if (decided) await recordAudit(tx, ctx.clock, tokenSignIn(user, input.address, "oauth", credential.app));
    return decided;
  });
  return done ? verifier : undefined;
}

/** The `sign-in` row of a person who let an application act for them (authorize page, xAuth). */
function tokenSignIn(user: User, address: string | undefined, via: "oauth" | "xauth", app: Application): AuditEntry {
  return {
    action: "sign-in",
    actor: personActor(user, address),
    target: userTarget(user),
    details: { via, application: app.name },
  };
}

/** Records the person's refusal; the exchange will then be refused. */
export async function deny(ctx: ServiceContext, credential: TemporaryCredential): Promise<void> {
  await ctx.store.transaction((tx) => tx.temporaryCredentials.decide(credential.id, { status: "denied" }));
}

/**
 * Exchanges an approved temporary credential and its verifier for token credentials, once.
 * @throws OAuthProblem parameter_absent, user_refused, permission_unknown, parameter_rejected, token_rejected
 */
export async function exchangeVerifier(
  ctx: ServiceContext,
  input: { credential: TemporaryCredential; verifier: string | undefined },
): Promise<IssuedCredentials> {
  const { credential, verifier } = input;
  if (verifier === undefined) throw new OAuthProblem("parameter_absent", "oauth_verifier is missing");
  if (credential.status === "denied") throw new OAuthProblem("user_refused", "the user denied this application access");
  if (credential.status !== "approved" || credential.userId === null || credential.verifier === null) {
    throw new OAuthProblem("permission_unknown", "the user has not approved this request yet");
  }
  if (!constantTimeEqual(verifier, credential.verifier))
    throw new OAuthProblem("parameter_rejected", "oauth_verifier does not match");
  const userId = credential.userId;
  return ctx.store.transaction(async (tx) => {
    // Deleting first makes the exchange single-use even when two requests race.
    if (!(await tx.temporaryCredentials.consume(credential.id)))
      throw new OAuthProblem("token_rejected", "oauth_token was already exchanged");
    return insertToken(
      tx.tokens,
      { userId, appId: credential.app.id, label: "OAuth", origin: "oauth" },
      ctx.clock.now(),
    );
  });
}

/** An xAuth request's password credentials, and where they came from (sign-in throttling). */
export interface PasswordGrant {
  readonly username: string | undefined;
  readonly password: string | undefined;
  readonly address: string;
}

/**
 * xAuth: token credentials for an e-mail and password, only for applications of level Z, and
 * only for accounts without a second factor (xAuth has no way to ask for one): an account that has
 * one, or must have one, authorizes applications on the authorize page or uses a personal token.
 * @throws OAuthProblem parameter_absent, permission_denied, additional_authorization_required
 * @throws TooManyRequestsError SIGN_IN_THROTTLED
 */
export async function exchangePassword(
  ctx: TwoFactorContext,
  input: { app: Application; grant: PasswordGrant },
): Promise<IssuedCredentials> {
  const { app, grant } = input;
  if (app.accessLevel !== "Z")
    throw new OAuthProblem("permission_denied", "this application may not use xAuth (it needs access level Z)");
  const { username, password } = grant;
  if (!username || password === undefined)
    throw new OAuthProblem("parameter_absent", "x_auth_username and x_auth_password are required");
  const user = await signInThrottled(ctx, { email: username, password, address: grant.address, via: "xauth" });
  if (!user) throw new OAuthProblem("permission_denied", "the e-mail address or the password is wrong");
  // Checked after the password, so that only someone who knows it learns the account has a second factor.
  const status = await twoFactorStatus(ctx, user.id);
  if (status.hasSecondFactor || status.required)
    throw new OAuthProblem(
      "additional_authorization_required",
      "this account signs in with two-factor sign-in, which xAuth cannot ask for: authorize the application through /oauth/authorize, or use a personal token",
    );
  return ctx.store.transaction(async (tx) => {
    const token = { userId: user.id, appId: app.id, label: "xAuth", origin: "oauth" } as const;
    const issued = await insertToken(tx.tokens, token, ctx.clock.now());
    await recordAudit(tx, ctx.clock, tokenSignIn(user, grant.address, "xauth", app));
    return issued;
  });
}

/**
 * Records a token issued to `userId` through `appId` and returns its credentials, shown once (only
 * the token's hash is stored), with the new token's id. The only insert of tokens: OAuth, personal
 * tokens and `kairan token add`.
 */
export async function insertToken(
  tokens: TokenRepo,
  token: { userId: number; appId: number; label: string; origin: TokenOrigin },
  at: number,
): Promise<IssuedCredentials & { readonly tokenId: number }> {
  const issued = { token: generateSecret(), secret: generateSecret() };
  const tokenId = await tokens.insert({
    ...token,
    tokenHash: hashToken(issued.token),
    secret: issued.secret,
    createdAt: at,
  });
  return { ...issued, tokenId };
}
