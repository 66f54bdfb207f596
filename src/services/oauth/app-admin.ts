// The operator's applications and tokens (`kairan app ...`, `kairan token ...`): the only insert,
// update and delete of applications, and the command line's way to tokens (oauth.ts `insertToken`).
// What is not found comes back as a value so the commands keep their own messages.
import type { AccessLevel, Application } from "../../domain/access.js";
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
): Promise<Application | undefined> {
  return ctx.store.transaction(async (tx) => {
    if (await tx.apps.findByConsumerKey(input.consumerKey)) return undefined;
    return tx.apps.insert({ ...input, createdAt: ctx.clock.now() });
  });
}

/** Sets or clears an application's legacy-signing mark; false when no application has the key. */
export async function updateApplicationAsOperator(
  ctx: OperatorContext,
  input: { consumerKey: string; legacySigning: boolean },
): Promise<boolean> {
  return ctx.store.transaction((tx) => tx.apps.setLegacySigning(input.consumerKey, input.legacySigning));
}

/** Removes an application and every token issued through it; false when no application has the key. */
export async function deleteApplicationAsOperator(
  ctx: OperatorContext,
  input: { consumerKey: string },
): Promise<boolean> {
  return ctx.store.transaction((tx) => tx.apps.remove(input.consumerKey));
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
    return { issued: await insertToken(tx.tokens, token, ctx.clock.now()) };
  });
}

/** Revokes a live token of anyone; false when no live token has the id. */
export async function revokeTokenAsOperator(ctx: OperatorContext, input: { tokenId: number }): Promise<boolean> {
  return ctx.store.transaction((tx) => tx.tokens.revoke(input.tokenId, ctx.clock.now()));
}
