// A person's WebSub subscriptions as the account page shows them, their cancellation, and the
// operator's list and removal (`kairan websub`). The hub's own endings are in check.ts.
import { NotFoundError } from "../../domain/errors.js";
import type { WebSubSubscriptionRow } from "../../store/queries/websub.js";
import type { ServiceContext } from "../context.js";

/** A subscription as pages and the command line show it (never its secret). */
export interface WebSubSubscriptionView {
  readonly id: number;
  readonly userId: number;
  readonly topic: string;
  readonly callback: string;
  readonly signed: boolean;
  readonly createdAt: number;
  readonly expiresAt: number;
}

function viewOf(row: WebSubSubscriptionRow): WebSubSubscriptionView {
  return {
    id: row.id,
    userId: row.user_id,
    topic: row.topic,
    callback: row.callback,
    signed: row.secret !== null,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

/** The person's own subscriptions, oldest first. */
export async function listOwnSubscriptions(ctx: ServiceContext, userId: number): Promise<WebSubSubscriptionView[]> {
  return (await ctx.store.read((tx) => tx.websub.ofUser(userId))).map(viewOf);
}

/**
 * Ends one of the person's own subscriptions: nothing more is sent to it.
 * @throws NotFoundError WEBSUB_NOT_SUBSCRIBED when it is not theirs (or gone)
 */
export async function cancelOwnSubscription(ctx: ServiceContext, userId: number, id: number): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    const row = await tx.websub.findById(id);
    if (row?.user_id !== userId || !(await tx.websub.remove(row.user_id, row.key_hash))) throw notFound(id);
  });
}

/** Every subscription of the site, oldest first (the operator's list). */
export async function listAllSubscriptions(ctx: ServiceContext): Promise<WebSubSubscriptionView[]> {
  return (await ctx.store.read((tx) => tx.websub.all())).map(viewOf);
}

/**
 * Ends any subscription (the operator's removal).
 * @throws NotFoundError WEBSUB_NOT_SUBSCRIBED
 */
export async function removeSubscription(ctx: ServiceContext, id: number): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    const row = await tx.websub.findById(id);
    if (row === undefined || !(await tx.websub.remove(row.user_id, row.key_hash))) throw notFound(id);
  });
}

function notFound(id: number): NotFoundError {
  return new NotFoundError("WEBSUB_NOT_SUBSCRIBED", `There is no WebSub subscription ${id}.`);
}
