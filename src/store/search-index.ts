// What the full-text index covers, table by table: the one list both engines' migrations, the
// search queries and `kairan reindex` build from (docs/architecture.md "Search").

/** An indexed table: its key and the text columns searched. */
export interface IndexedTable {
  readonly table: "topics" | "comments" | "tasks" | "file_search_texts";
  readonly key: "id" | "file_id";
  readonly columns: readonly string[];
}

/**
 * Topics (title, body), comments, tasks (title, text), and shared files through
 * `file_search_texts` (title, memo, current file name and the start of a plain-text file, written
 * with the file by the files repository).
 */
export const INDEXED_TABLES: readonly IndexedTable[] = [
  { table: "topics", key: "id", columns: ["title", "body"] },
  { table: "comments", key: "id", columns: ["body"] },
  { table: "tasks", key: "id", columns: ["title", "summary"] },
  { table: "file_search_texts", key: "file_id", columns: ["body"] },
];

/** SQLite: the FTS5 table (trigram tokenizer, external content) that indexes `table`. */
export function ftsTableOf(table: IndexedTable["table"]): string {
  return `${table}_fts`;
}

/** PostgreSQL: the GIN trigram index on `table`'s searched text. */
export function trigramIndexOf(table: IndexedTable["table"]): string {
  return `${table}_search`;
}

/** The searched text of a row as one SQL expression (the same on both engines; PostgreSQL indexes exactly it). */
export function searchedText(indexed: IndexedTable, alias: string): string {
  return indexed.columns.map((column) => `${alias}.${column}`).join(" || ' ' || ");
}
