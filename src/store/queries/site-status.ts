// What the administration's status page reads of the database itself: its size on disk and the
// bytes the stored files take (their rows' sizes, whatever holds the bytes).
import { type Kysely, sql } from "kysely";
import type { Database } from "../schema.js";
import type { Engine } from "./engine.js";

/** The database's own figures. */
export interface SiteStatusRepo {
  /** The database's size in bytes (SQLite: its pages; PostgreSQL: pg_database_size). */
  databaseBytes(): Promise<number>;
  /** Bytes of every file version and comment attachment kept. */
  storedBytes(): Promise<number>;
}

/** The status queries of one engine. */
export function siteStatusRepo(db: Kysely<Database>, engine: Engine): SiteStatusRepo {
  return {
    async databaseBytes() {
      const query =
        engine === "sqlite"
          ? sql<{ bytes: number }>`select page_count * page_size as bytes from pragma_page_count(), pragma_page_size()`
          : sql<{ bytes: string }>`select pg_database_size(current_database()) as bytes`;
      const { rows } = await query.execute(db);
      return Number(rows[0]?.bytes ?? 0);
    },
    async storedBytes() {
      const files = await db
        .selectFrom("file_versions")
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>("size"), sql<number>`0`).as("bytes"))
        .executeTakeFirstOrThrow();
      const attachments = await db
        .selectFrom("attachments")
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>("size"), sql<number>`0`).as("bytes"))
        .executeTakeFirstOrThrow();
      return Number(files.bytes) + Number(attachments.bytes);
    },
  };
}
