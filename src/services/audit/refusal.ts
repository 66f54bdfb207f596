// The refused row of an action that failed on a rule: the action's own transaction rolled back
// (so it wrote no `done` row), and the refusal is kept on its own, naming the error's code.
import type { AuditEntry } from "../../domain/audit.js";
import { DomainError } from "../../domain/errors.js";
import type { ServiceContext } from "../context.js";
import { recordRefusal } from "./audit-log.js";

/** The kinds of error that mean "tried and not allowed" (not a fault of the server). */
const REFUSALS: ReadonlySet<string> = new Set(["invalid", "forbidden", "not_found", "conflict", "too_many_requests"]);

/**
 * Runs `work`; when it throws a refusal (a rule, a permission, a thing not found), writes `entry`
 * as a `refused` row with the error's code among its details, then throws the error on.
 */
export async function auditRefusals<T>(
  ctx: Pick<ServiceContext, "store" | "clock">,
  entry: AuditEntry,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError && REFUSALS.has(error.kind)) await recordRefusal(ctx, refused(entry, error.code));
    throw error;
  }
}

/** The refused row: the error's code among the details; a group that does not exist is named there, not linked. */
function refused(entry: AuditEntry, code: string): AuditEntry {
  if (code !== "GROUP_NOT_FOUND" || entry.groupId === undefined)
    return { ...entry, details: { ...entry.details, code } };
  const { groupId, ...rest } = entry;
  return { ...rest, details: { ...entry.details, code, groupId } };
}
