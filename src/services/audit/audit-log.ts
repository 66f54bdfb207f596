// The audit log's one writer and its readers. An action that is done writes its row in its own
// transaction (`recordAudit(tx, ...)`), so a row exists exactly when the action happened; an action
// that is refused writes a `refused` row on its own afterwards (`recordRefusal`), since the
// refused action's transaction, if any, rolled back.
import { type AuditEntry, type AuditOutcome, cutLabel } from "../../domain/audit.js";
import type { Clock } from "../../clock.js";
import type { AuditEventRow, AuditFilter } from "../../store/queries/audit-events.js";
import type { Tx } from "../../store/store.js";
import type { ServiceContext } from "../context.js";

/** Rows of one page of the log, at most. */
export const AUDIT_PAGE_MAX = 500;

/** Writes `entry` inside the caller's transaction `tx`, at the clock's time. */
export async function recordAudit(tx: Tx, clock: Clock, entry: AuditEntry): Promise<void> {
  await tx.auditEvents.insert(rowOf(entry, entry.outcome ?? "done", clock.now()));
}

/**
 * Writes a `refused` row for an action that was tried and not allowed, in a transaction of its
 * own. Never throws: failing to log a refusal must not change the answer the refusal gets.
 */
export async function recordRefusal(ctx: Pick<ServiceContext, "store" | "clock">, entry: AuditEntry): Promise<void> {
  try {
    await ctx.store.transaction((tx) => tx.auditEvents.insert(rowOf(entry, "refused", ctx.clock.now())));
  } catch {
    // The database is away or full: the refusal itself is still answered (and logged by the caller).
  }
}

/** One page of the log, newest first; `limit` is held to AUDIT_PAGE_MAX. */
export async function listAudit(ctx: ServiceContext, filter: AuditFilter): Promise<AuditEventRow[]> {
  const limit = Math.max(1, Math.min(filter.limit, AUDIT_PAGE_MAX));
  return ctx.store.read((tx) => tx.auditEvents.list({ ...filter, limit }));
}

/** Deletes the rows older than `keepDays` days; returns how many went. */
export async function pruneAudit(ctx: ServiceContext, keepDays: number): Promise<number> {
  const before = ctx.clock.now() - keepDays * 86_400_000;
  return ctx.store.transaction((tx) => tx.auditEvents.deleteBefore(before));
}

function rowOf(entry: AuditEntry, outcome: AuditOutcome, at: number) {
  return {
    created_at: at,
    action: entry.action,
    outcome,
    actor_user_id: entry.actor.userId ?? null,
    actor_label: cutLabel(entry.actor.label),
    address: entry.actor.address ?? null,
    target_kind: entry.target?.kind ?? null,
    target_id: entry.target?.id ?? null,
    target_label: entry.target === undefined ? null : cutLabel(entry.target.label),
    group_id: entry.groupId ?? null,
    details: JSON.stringify(entry.details ?? {}),
  };
}
