// The audit log as the administration reads it: a page of rows under filters (a person named by
// address), and every filtered row for a download as CSV or JSON Lines.
import type { AuditEventRow, AuditFilter } from "../../store/queries/audit-events.js";
import type { ServiceContext } from "../context.js";
import { type Administrator, requireAdministrator } from "../account/site-admin.js";
import { AUDIT_PAGE_MAX } from "./audit-log.js";

/** The filters of the log page: what the form gives, before the person is found. */
export interface AuditQuery extends Omit<AuditFilter, "actorUserId" | "limit"> {
  /** The acting person's address; one no account has matches no row. */
  readonly personEmail?: string;
}

/** Rows on one page of the log. */
export const AUDIT_PAGE_SIZE = 50;

/** Rows one download holds at most (a larger log is downloaded by narrower dates). */
export const AUDIT_EXPORT_MAX = 100_000;

/** One page of the log and the `before` of the next. */
export interface AuditPage {
  readonly rows: readonly AuditEventRow[];
  readonly nextBefore: number | undefined;
}

/**
 * One page of the filtered log, newest first.
 * @throws ForbiddenError ADMIN_REQUIRED
 */
export async function readAuditPage(ctx: ServiceContext, by: Administrator, query: AuditQuery): Promise<AuditPage> {
  const filter = await filterOf(ctx, by, query);
  if (filter === undefined) return { rows: [], nextBefore: undefined };
  const rows = await ctx.store.read((tx) => tx.auditEvents.list({ ...filter, limit: AUDIT_PAGE_SIZE + 1 }));
  const shown = rows.slice(0, AUDIT_PAGE_SIZE);
  return { rows: shown, nextBefore: rows.length > AUDIT_PAGE_SIZE ? shown.at(-1)?.id : undefined };
}

/**
 * Every filtered row (newest first, at most AUDIT_EXPORT_MAX), read page by page.
 * @throws ForbiddenError ADMIN_REQUIRED
 */
export async function readAuditExport(
  ctx: ServiceContext,
  by: Administrator,
  query: AuditQuery,
): Promise<AuditEventRow[]> {
  const filter = await filterOf(ctx, by, query);
  if (filter === undefined) return [];
  const all: AuditEventRow[] = [];
  let beforeId = filter.beforeId;
  while (all.length < AUDIT_EXPORT_MAX) {
    const limit = Math.min(AUDIT_PAGE_MAX, AUDIT_EXPORT_MAX - all.length);
    const rows = await ctx.store.read((tx) =>
      tx.auditEvents.list({ ...filter, ...(beforeId === undefined ? {} : { beforeId }), limit }),
    );
    all.push(...rows);
    if (rows.length < limit) break;
    beforeId = rows.at(-1)?.id;
  }
  return all;
}

/** The store's filter; undefined when it can match nothing (a person no account is). */
async function filterOf(ctx: ServiceContext, by: Administrator, query: AuditQuery) {
  const { personEmail, ...rest } = query;
  return ctx.store.read(async (tx) => {
    await requireAdministrator(tx, by);
    if (personEmail === undefined || personEmail === "") return rest;
    const person = await tx.users.findByEmail(personEmail);
    return person === undefined ? undefined : { ...rest, actorUserId: person.id };
  });
}
