// Signing in through the site's OpenID provider (authorization code flow with PKCE, state and
// nonce). Starting keeps the flow's secrets in the database under the hash of a random cookie of
// the browser, for 10 minutes, single use; finishing checks the provider's answer against them
// (openid-client), decides the account (domain/oidc.ts), and signs in as a password would: an
// audit row `sign-in` with `via: "oidc"`, or a `refused` row naming the reason.
import * as client from "openid-client";
import { hashPassword } from "../../auth/password.js";
import { generateSecret, hashToken } from "../../auth/token.js";
import { type AuditActor, personActor, userTarget } from "../../domain/audit.js";
import { OIDC_FLOW_MS, type OidcIdentity, type OidcRefusal, decideOidc, identityOf } from "../../domain/oidc.js";
import type { User } from "../../domain/user.js";
import { insertAccount } from "../account/account-write.js";
import { recordAudit, recordRefusal } from "../audit/audit-log.js";
import { openSession, signInEntry } from "../session/session.js";
import { trustDevice } from "../session/sign-in.js";
import { readClientSecret, readSiteSettings } from "../settings/site-settings.js";
import { continueSignIn } from "../two-factor/sign-in-step.js";
import type { TwoFactorContext } from "../two-factor/two-factor.js";
import { OidcUnavailableError, describe, discoverProvider, isNetworkError } from "./provider.js";

/** What the sign-in page needs to offer single sign-on: its button's name, when it is on. */
export async function oidcOffer(ctx: TwoFactorContext): Promise<string | undefined> {
  const settings = await readSiteSettings(ctx);
  return settings.oidcEnabled ? settings.oidcName : undefined;
}

/** A started sign-in: where to send the browser, and the cookie that binds the flow to it. */
export interface OidcStart {
  readonly authorizationUrl: string;
  readonly browser: string;
}

/**
 * Starts a sign-in at the provider. Undefined when single sign-on is off.
 * @throws OidcUnavailableError (the provider cannot be reached, or its discovery fails)
 */
export async function startOidcSignIn(
  ctx: TwoFactorContext,
  input: { readonly redirectUri: string; readonly next: string },
): Promise<OidcStart | undefined> {
  const configured = await configuredProvider(ctx);
  if (configured === undefined) return undefined;
  const provider = {
    settings: configured.settings,
    config: await discoverProvider(configured.settings, configured.secret),
  };
  const browser = generateSecret();
  const flow = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
    issuer: provider.settings.oidcIssuer,
    next: input.next,
    expiresAt: ctx.clock.now() + OIDC_FLOW_MS,
  };
  const url = client.buildAuthorizationUrl(provider.config, {
    redirect_uri: input.redirectUri,
    scope: "openid email profile",
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
    code_challenge_method: "S256",
  });
  await ctx.store.transaction((tx) => tx.oidc.putFlow(hashToken(browser), flow, ctx.clock.now()));
  return { authorizationUrl: url.href, browser };
}

/** Where the provider's answer leads. */
export type OidcOutcome =
  | {
      readonly kind: "session";
      readonly token: string;
      /** Who signed in (the web takes the browser's time zone for them). */
      readonly userId: number;
      readonly device: string;
      readonly next: string;
      readonly created: boolean;
    }
  | { readonly kind: "second-step"; readonly pending: string; readonly device: string; readonly next: string }
  | { readonly kind: "refused"; readonly reason: OidcRefusal }
  | { readonly kind: "off" };

/** The browser's request back from the provider. */
export interface OidcCallback {
  /** The cookie set when the flow started. */
  readonly browser: string | undefined;
  /** The callback's full URL (its query holds the code and state). */
  readonly currentUrl: URL;
  readonly address: string;
  readonly device: string | undefined;
}

/**
 * Finishes a sign-in with the provider's answer: `off` when single sign-on is off. A callback
 * without a live flow of this browser is refused without an audit row: it names nobody, and
 * anyone may open the address (the log is not theirs to fill).
 * @throws OidcUnavailableError (the provider cannot be reached)
 */
export async function finishOidcSignIn(ctx: TwoFactorContext, callback: OidcCallback): Promise<OidcOutcome> {
  const anonymous: AuditActor = { label: "single sign-on", address: callback.address };
  const refuse = async (reason: OidcRefusal, actor = anonymous, user?: User): Promise<OidcOutcome> => {
    await recordRefusal(ctx, {
      action: "sign-in.failed",
      actor,
      ...(user === undefined ? {} : { target: userTarget(user) }),
      details: { via: "oidc", reason },
    });
    return { kind: "refused", reason };
  };
  const configured = await configuredProvider(ctx);
  if (configured === undefined) return { kind: "off" };
  const flow =
    callback.browser === undefined || callback.browser === ""
      ? undefined
      : await ctx.store.transaction((tx) => tx.oidc.takeFlow(hashToken(callback.browser ?? ""), ctx.clock.now()));
  // None, used, expired, or pointed at another provider since: start again.
  if (flow === undefined || configured.settings.oidcIssuer !== flow.issuer)
    return { kind: "refused", reason: "expired" };
  if (callback.currentUrl.searchParams.get("error") === "access_denied") return refuse("denied");
  const provider = {
    settings: configured.settings,
    config: await discoverProvider(configured.settings, configured.secret),
  };
  let claims: Record<string, unknown>;
  try {
    const tokens = await client.authorizationCodeGrant(provider.config, callback.currentUrl, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (idClaims === undefined) return refuse("invalid");
    claims = { ...idClaims };
    // Many providers put the address in the user info only (an ID token kept small).
    if (!(provider.settings.oidcEmailClaim in claims) && provider.config.serverMetadata().userinfo_endpoint)
      claims = { ...(await client.fetchUserInfo(provider.config, tokens.access_token, idClaims.sub)), ...idClaims };
  } catch (error) {
    if (isNetworkError(error)) throw new OidcUnavailableError(`token request failed: ${describe(error)}`);
    if (error instanceof client.AuthorizationResponseError) return refuse("denied");
    return refuse("invalid");
  }
  const identity = identityOf(claims, provider.settings.oidcEmailClaim, flow.issuer, String(claims["sub"]));
  const actor = identity.email === undefined ? anonymous : { label: identity.email, address: callback.address };
  const found = await ctx.store.read(async (tx) => ({
    linkedUserId: await tx.oidc.linkedUser(identity.issuer, identity.subject),
    userIdByEmail: identity.email === undefined ? undefined : (await tx.users.findByEmail(identity.email))?.id,
  }));
  const decision = decideOidc(provider.settings, identity, found);
  if (decision.kind === "refuse") {
    const user = decision.userId === undefined ? undefined : await userById(ctx, decision.userId);
    return refuse(decision.reason, user === undefined ? actor : personActor(user, callback.address), user);
  }
  let user: User | undefined;
  if (decision.kind === "create") user = await createAccount(ctx, identity, callback.address);
  else {
    const userId = decision.userId;
    const known = await ctx.store.read(async (tx) => ({
      user: await tx.users.findById(userId),
      disabled: await tx.users.isDisabled(userId),
    }));
    if (known.user === undefined) return refuse("no-account", actor);
    if (known.disabled !== false) return refuse("disabled", personActor(known.user, callback.address), known.user);
    user = known.user;
    await ctx.store.transaction((tx) =>
      decision.kind === "link"
        ? tx.oidc.link(identity.issuer, identity.subject, userId, ctx.clock.now())
        : tx.oidc.touchLink(identity.issuer, identity.subject, ctx.clock.now()),
    );
  }
  const device = await trustDevice(ctx, user.id, callback.device);
  const audit = signInEntry(user, callback.address, {
    via: "oidc",
    issuer: identity.issuer,
    ...(decision.kind === "link" ? { linked: true } : {}),
  });
  const created = decision.kind === "create";
  // The provider stands for Kairan's second step only when the administrator says so.
  if (provider.settings.oidcTrustSecondFactor) {
    const started = await openSession(ctx, user, audit);
    return { kind: "session", token: started.token, userId: user.id, device, next: flow.next, created };
  }
  const continued = await continueSignIn(ctx, user, audit);
  return continued.kind === "session"
    ? { kind: "session", token: continued.started.token, userId: user.id, device, next: flow.next, created }
    : { kind: "second-step", pending: continued.pending, device, next: flow.next };
}

/** The site's provider settings and secret (no request to it yet); undefined when single sign-on is off. */
async function configuredProvider(ctx: TwoFactorContext) {
  const settings = await readSiteSettings(ctx);
  if (!settings.oidcEnabled || settings.oidcIssuer === "" || settings.oidcClientId === "") return undefined;
  const secret = await readClientSecret(ctx);
  return secret === undefined ? undefined : { settings, secret };
}

async function userById(ctx: TwoFactorContext, id: number): Promise<User | undefined> {
  return ctx.store.read((tx) => tx.users.findById(id));
}

/**
 * A new account for a verified address, linked to its subject, with a `user.create` row. Its
 * password is random and never told: the person signs in through the provider, or sets one with
 * "forgot password".
 */
async function createAccount(ctx: TwoFactorContext, identity: OidcIdentity, address: string): Promise<User> {
  const passwordHash = await hashPassword(generateSecret());
  const email = identity.email ?? "";
  return ctx.store.transaction(async (tx) => {
    const at = ctx.clock.now();
    const user = await insertAccount(
      tx,
      { name: identity.name, email, familyKana: "", givenKana: "", passwordHash },
      at,
    );
    await tx.oidc.link(identity.issuer, identity.subject, user.id, at);
    await recordAudit(tx, ctx.clock, {
      action: "user.create",
      actor: personActor(user, address),
      target: userTarget(user),
      details: { via: "oidc" },
    });
    return user;
  });
}
