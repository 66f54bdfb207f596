import type { Kysely } from "kysely";
import type { AuditEventsTable, Database } from "../schema.js";

/** A row of the audit log as read. */
export type AuditEventRow = Omit<AuditEventsTable, "id" | "details"> & {
  readonly id: number;
  readonly details: string;
};

/** A row to write (the time is the caller's clock). */
export type NewAuditEvent = Omit<AuditEventsTable, "id" | "details"> & { readonly details: string };

/** Which rows to read: all filters optional, newest first, before `beforeId` when paging. */
export interface AuditFilter {
  readonly since?: number;
  readonly until?: number;
  readonly actions?: readonly string[];
  readonly actorUserId?: number;
  readonly groupId?: number;
  readonly outcome?: "done" | "refused";
  /** Rows with a smaller id only: the next page after a page whose last row had this id. */
  readonly beforeId?: number;
  readonly limit: number;
}

/** The audit log's queries (migration 0035). */
export interface AuditEventRepo {
  insert(row: NewAuditEvent): Promise<number>;
  /** Newest first (by id, which grows with time). */
  list(filter: AuditFilter): Promise<AuditEventRow[]>;
  /** Deletes the rows written before `at`; returns how many. */
  deleteBefore(at: number): Promise<number>;
}

export function auditEventRepo(db: Kysely<Database>): AuditEventRepo {
  return {
    async insert(row) {
      const inserted = await db.insertInto("audit_events").values(row).returning("id").executeTakeFirstOrThrow();
      return inserted.id;
    },
    async list(filter) {
      let query = db.selectFrom("audit_events").selectAll();
      if (filter.since !== undefined) query = query.where("created_at", ">=", filter.since);
      if (filter.until !== undefined) query = query.where("created_at", "<", filter.until);
      if (filter.actions !== undefined && filter.actions.length > 0)
        query = query.where("action", "in", filter.actions);
      if (filter.actorUserId !== undefined) query = query.where("actor_user_id", "=", filter.actorUserId);
      if (filter.groupId !== undefined) query = query.where("group_id", "=", filter.groupId);
      if (filter.outcome !== undefined) query = query.where("outcome", "=", filter.outcome);
      if (filter.beforeId !== undefined) query = query.where("id", "<", filter.beforeId);
      return query.orderBy("id", "desc").limit(filter.limit).execute();
    },
    async deleteBefore(at) {
      const result = await db.deleteFrom("audit_events").where("created_at", "<", at).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
