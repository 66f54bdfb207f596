// A person's own credentials, as the settings page manages them: personal tokens (create, shown
// once; revoke) and the applications they authorized through OAuth (revoke all of one).
import type { Actor, Application } from "../../domain/access.js";
import { type AuditTarget, actorOf, cutLabel } from "../../domain/audit.js";
import { NotFoundError, ValidationError } from "../../domain/errors.js";
import type { UserToken } from "../../domain/session.js";
import { checkMaxChars } from "../../domain/text.js";
import { type IssuedCredentials, insertToken } from "../oauth/oauth.js";
import { recordAudit } from "../audit/audit-log.js";
import type { ServiceContext } from "../context.js";

/** The longest label a personal token may carry. */
export const TOKEN_LABEL_MAX_CHARS = 100;

/** An application the person authorized, with how many live tokens it holds and since when. */
export interface AuthorizedApp {
  readonly appId: number;
  readonly appName: string;
  readonly appLevel: string;
  readonly tokens: number;
  readonly since: number;
}

/** What the settings page shows of the caller's credentials. */
export interface CredentialsView {
  readonly personal: readonly UserToken[];
  readonly authorized: readonly AuthorizedApp[];
  /** Applications a personal token can be issued through. */
  readonly apps: readonly Application[];
}

/** The caller's live personal tokens, the applications they authorized, and the registered applications. */
export async function listMyCredentials(ctx: ServiceContext, actor: Actor): Promise<CredentialsView> {
  return ctx.store.read(async (tx) => {
    const tokens = await tx.tokens.listLiveOfUser(actor.user.id);
    const apps = (await tx.apps.list()).map(({ id, name, consumerKey, accessLevel }) => ({
      id,
      name,
      consumerKey,
      accessLevel,
    }));
    return {
      personal: tokens.filter((t) => t.origin === "personal"),
      authorized: groupByApp(tokens.filter((t) => t.origin === "oauth")),
      apps,
    };
  });
}

function groupByApp(tokens: readonly UserToken[]): AuthorizedApp[] {
  const byApp = new Map<number, AuthorizedApp>();
  for (const token of tokens) {
    const seen = byApp.get(token.appId);
    byApp.set(token.appId, {
      appId: token.appId,
      appName: token.appName,
      appLevel: token.appLevel,
      tokens: (seen?.tokens ?? 0) + 1,
      since: Math.min(seen?.since ?? token.createdAt, token.createdAt),
    });
  }
  return [...byApp.values()];
}

/**
 * Issues a personal token through a registered application; the token and secret are returned
 * once (only the token's hash is stored).
 * @throws ValidationError TOKEN_LABEL_REQUIRED, TOKEN_LABEL_TOO_LONG; NotFoundError APP_NOT_FOUND
 */
export async function createPersonalToken(
  ctx: ServiceContext,
  actor: Actor,
  input: { appId: number; label: string },
): Promise<IssuedCredentials> {
  const label = input.label.trim();
  if (label === "")
    throw new ValidationError("TOKEN_LABEL_REQUIRED", "A personal token needs a label that says what it is for.");
  checkMaxChars(label, TOKEN_LABEL_MAX_CHARS, "TOKEN_LABEL_TOO_LONG", "The token's label");
  return ctx.store.transaction(async (tx) => {
    const app = (await tx.apps.list()).find((candidate) => candidate.id === input.appId);
    if (!app) throw new NotFoundError("APP_NOT_FOUND", "The application does not exist.");
    const issued = await insertToken(
      tx.tokens,
      { userId: actor.user.id, appId: app.id, label, origin: "personal" },
      ctx.clock.now(),
    );
    await recordAudit(tx, ctx.clock, {
      action: "token.create",
      actor: actorOf(actor),
      target: tokenTarget(issued.tokenId, label),
      details: { application: app.name, origin: "personal" },
    });
    return issued;
  });
}

/** Revokes one of the caller's personal tokens. @throws NotFoundError TOKEN_NOT_FOUND (also for other people's tokens) */
export async function revokePersonalToken(
  ctx: ServiceContext,
  actor: Actor,
  input: { tokenId: number },
): Promise<void> {
  const revoked = await ctx.store.transaction(async (tx) => {
    const done = await tx.tokens.revokeOfUser(actor.user.id, input.tokenId, "personal", ctx.clock.now());
    if (done)
      await recordAudit(tx, ctx.clock, {
        action: "token.revoke",
        actor: actorOf(actor),
        target: tokenTarget(input.tokenId, `token ${input.tokenId}`),
        details: { origin: "personal" },
      });
    return done;
  });
  if (!revoked) throw new NotFoundError("TOKEN_NOT_FOUND", "You have no live personal token with this id.");
}

/** Revokes every token the caller gave an application through OAuth. @throws NotFoundError APP_NOT_AUTHORIZED */
export async function revokeAuthorizedApp(
  ctx: ServiceContext,
  actor: Actor,
  input: { appId: number },
): Promise<number> {
  const count = await ctx.store.transaction(async (tx) => {
    const revoked = await tx.tokens.revokeAppOfUser(actor.user.id, input.appId, "oauth", ctx.clock.now());
    const app = (await tx.apps.list()).find((candidate) => candidate.id === input.appId);
    if (revoked > 0)
      await recordAudit(tx, ctx.clock, {
        action: "token.revoke",
        actor: actorOf(actor),
        target: {
          kind: "application",
          id: String(input.appId),
          label: cutLabel(app?.name ?? `application ${input.appId}`),
        },
        details: { origin: "oauth", tokens: revoked },
      });
    return revoked;
  });
  if (count === 0)
    throw new NotFoundError("APP_NOT_AUTHORIZED", "You have not authorized this application (or already revoked it).");
  return count;
}

/** A token as a target: its id, and its label. */
export function tokenTarget(id: number, label: string): AuditTarget {
  return { kind: "token", id: String(id), label: cutLabel(label) };
}
