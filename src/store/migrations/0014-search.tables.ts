import { type Kysely, sql } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * The searchable text of each shared file, one row per file: what the index covers of it (title,
 * memo, the current version's file name, the start of a plain-text file). Existing files get their
 * title, memo and name here; `kairan reindex` adds the text of their bytes.
 */
export async function createFileSearchTexts(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable("file_search_texts")
    .addColumn("file_id", t.int64, (c) => c.primaryKey().references("files.id").onDelete("cascade"))
    .addColumn("body", "text", (c) => c.notNull())
    .execute();
  await sql`INSERT INTO file_search_texts (file_id, body)
    SELECT f.id, f.title || ${"\n"} || f.memo || ${"\n"} || v.file_name
    FROM files f INNER JOIN file_versions v ON v.file_id = f.id AND v.version_number = f.current_version`.execute(db);
}
