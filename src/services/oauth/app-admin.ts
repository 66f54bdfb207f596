// The operator's applications and tokens (`kairan app ...`, `kairan token ...`, and the same acts
// of a site administrator in /admin/apps): the only insert, update and delete of applications,
// and the command line's way to tokens (oauth.ts `insertToken`). Each change of an application
// writes its audit row. What is not found comes back as a value so the commands keep their own messages.
import { generateSecret } from "../../auth/token.js";
import type { AccessLevel, Application } from "../../domain/access.js";
import { type AuditAction, type AuditTarget, COMMAND_LINE_ACTOR, cutLabel, userTarget } from "../../domain/audit.js";
import type { Tx } from "../../store/store.js";
import { type Administrator, OPERATOR, refusalLogged } from "../account/site-admin.js";
import { recordAudit } from "../audit/audit-log.js";
import type { ServiceContext } from "../context.js";
import { type IssuedCredentials, insertToken } from "./oauth.js";

/** What the operator's commands need of the context: no blob store. */
export type OperatorContext = Pick<ServiceContext, "store" | "clock">;

/** A new application as the operator describes it (`kairan app add`). */
export interface NewApplication {
  readonly name: string;
  readonly consumerKey: string;
  readonly consumerSecret: string;
  readonly accessLevel: AccessLevel;
  readonly legacySigning: boolean;
}

/** Registers an application; undefined when another already has its consumer key. */
export async function createApplicationAsOperator(
  ctx: OperatorContext,
  input: NewApplication,
  by: Administrator = OPERATOR,
): Promise<Application | undefined> {
  return refusalLogged(ctx, by, "application.create", async (tx) => {
    if (await tx.apps.findByConsumerKey(input.consumerKey)) return undefined;
    const app = await tx.apps.insert({ ...input, createdAt: ctx.clock.now() });
    const details = { accessLevel: input.accessLevel, legacySigning: input.legacySigning };
    await audit(tx, ctx, by, "application.create", app, details);
    return app;
  });
}

/**
 * Sets or clears an application's legacy-signing mark, and (when given) its access level;
 * false when no application has the key.
 */
export async function updateApplicationAsOperator(
  ctx: OperatorContext,
  input: { consumerKey: string; legacySigning?: boolean; accessLevel?: AccessLevel },
  by: Administrator = OPERATOR,
): Promise<boolean> {
  return refusalLogged(ctx, by, "application.update", async (tx) => {
    const app = await tx.apps.findByConsumerKey(input.consumerKey);
    if (!app) return false;
    const details: Record<string, unknown> = {};
    if (input.legacySigning !== undefined && input.legacySigning !== app.legacySigning) {
      await tx.apps.setLegacySigning(input.consumerKey, input.legacySigning);
      details.legacySigning = { before: app.legacySigning, after: input.legacySigning };
    }
    if (input.accessLevel !== undefined && input.accessLevel !== app.accessLevel) {
      await tx.apps.setAccessLevel(input.consumerKey, input.accessLevel);
      details.accessLevel = { before: app.accessLevel, after: input.accessLevel };
    }
    if (Object.keys(details).length > 0) await audit(tx, ctx, by, "application.update", app, details);
    return true;
  });
}

/**
 * Gives the application a new consumer secret (returned once, never logged); requests signed with
 * the old one fail from then on. Undefined when no application has the key.
 */
export async function rotateApplicationSecret(
  ctx: OperatorContext,
  input: { consumerKey: string },
  by: Administrator = OPERATOR,
): Promise<string | undefined> {
  const secret = generateSecret();
  return refusalLogged(ctx, by, "application.secret.rotate", async (tx) => {
    const app = await tx.apps.findByConsumerKey(input.consumerKey);
    if (!app) return undefined;
    await tx.apps.setSecret(input.consumerKey, secret);
    await audit(tx, ctx, by, "application.secret.rotate", app, {});
    return secret;
  });
}

/** Revokes every live token issued through the application; undefined when no application has the key. */
export async function revokeApplicationTokens(
  ctx: OperatorContext,
  input: { consumerKey: string },
  by: Administrator = OPERATOR,
): Promise<number | undefined> {
  return refusalLogged(ctx, by, "application.tokens.revoke", async (tx) => {
    const app = await tx.apps.findByConsumerKey(input.consumerKey);
    if (!app) return undefined;
    const revoked = await tx.tokens.revokeAllOfApp(app.id, ctx.clock.now());
    await audit(tx, ctx, by, "application.tokens.revoke", app, { revoked });
    return revoked;
  });
}

/** Removes an application and every token issued through it; false when no application has the key. */
export async function deleteApplicationAsOperator(
  ctx: OperatorContext,
  input: { consumerKey: string },
  by: Administrator = OPERATOR,
): Promise<boolean> {
  return refusalLogged(ctx, by, "application.delete", async (tx) => {
    const app = await tx.apps.findByConsumerKey(input.consumerKey);
    if (!app || !(await tx.apps.remove(input.consumerKey))) return false;
    await audit(tx, ctx, by, "application.delete", app, {});
    return true;
  });
}

function audit(
  tx: Tx,
  ctx: OperatorContext,
  by: Administrator,
  action: AuditAction,
  app: Application,
  details: Readonly<Record<string, unknown>>,
): Promise<void> {
  return recordAudit(tx, ctx.clock, { action, actor: by.audit, target: appTarget(app), details });
}

/** A token issued by the operator, or which of the two named things does not exist. */
export type OperatorToken = { readonly issued: IssuedCredentials } | { readonly missing: "user" | "app" };

/** Issues a personal token to the user with this e-mail address through the application with this key. */
export async function createTokenAsOperator(
  ctx: OperatorContext,
  input: { email: string; consumerKey: string; label: string },
): Promise<OperatorToken> {
  return ctx.store.transaction(async (tx) => {
    const user = await tx.users.findCredentialsByEmail(input.email);
    if (!user) return { missing: "user" };
    const app = await tx.apps.findByConsumerKey(input.consumerKey);
    if (!app) return { missing: "app" };
    const token = { userId: user.id, appId: app.id, label: input.label, origin: "personal" } as const;
    const issued = await insertToken(tx.tokens, token, ctx.clock.now());
    const { passwordHash: _hash, disabled: _disabled, ...owner } = user;
    await recordAudit(tx, ctx.clock, {
      action: "token.create",
      actor: COMMAND_LINE_ACTOR,
      target: { kind: "token", id: String(issued.tokenId), label: cutLabel(input.label) },
      details: { application: app.name, origin: "personal", owner: userTarget(owner).label },
    });
    return { issued };
  });
}

/** Revokes a live token of anyone; false when no live token has the id. */
export async function revokeTokenAsOperator(ctx: OperatorContext, input: { tokenId: number }): Promise<boolean> {
  return ctx.store.transaction(async (tx) => {
    const done = await tx.tokens.revoke(input.tokenId, ctx.clock.now());
    if (done)
      await recordAudit(tx, ctx.clock, {
        action: "token.revoke",
        actor: COMMAND_LINE_ACTOR,
        target: { kind: "token", id: String(input.tokenId), label: `token ${input.tokenId}` },
      });
    return done;
  });
}

function appTarget(app: Application): AuditTarget {
  return { kind: "application", id: String(app.id), label: cutLabel(`${app.name} (${app.consumerKey})`) };
}
