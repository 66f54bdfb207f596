import { type Kysely, type RawBuilder, sql } from "kysely";
import { SEARCH_LIMITS } from "../../domain/limits.js";
import type { SearchKind, SearchQuery } from "../../domain/search.js";
import type { Database } from "../schema.js";
import type { PageWindow } from "../page-window.js";
import { type IndexedTable, INDEXED_TABLES, ftsTableOf, searchedText, trigramIndexOf } from "../search-index.js";
import type { Engine } from "./index.js";

/** What to look for and where: the caller's joined groups, or one of them, and some kinds. */
export interface SearchFilter {
  readonly userId: number;
  readonly query: SearchQuery;
  readonly kinds: readonly SearchKind[];
  /** Only this group (still only when the user has joined it); null: all their groups. */
  readonly groupId: number | null;
}

/** One found item: its kind, id, group and the time lists sort it by (updated; a comment's creation). */
export interface SearchHit {
  readonly kind: SearchKind;
  readonly id: number;
  readonly groupId: number;
  readonly at: number;
}

/** The full-text index (search-index.ts): searching it, and rebuilding it (`kairan reindex`). */
export interface SearchRepo {
  /** A page of hits, newest first (time, then kind and id). */
  find(filter: SearchFilter, page: PageWindow): Promise<SearchHit[]>;
  /** Every hit, over all pages. */
  count(filter: SearchFilter): Promise<number>;
  /** The searchable text of shared files (title, memo, file name, start of a text file), by file id. */
  fileTexts(fileIds: readonly number[]): Promise<Map<number, string>>;
  /** Every shared file with its current version's name and blob, to write its text again. */
  filesToIndex(): Promise<
    { id: number; title: string; memo: string; fileName: string; mimeType: string; blobKey: string }[]
  >;
  /** Replaces a file's searchable text. */
  setFileText(fileId: number, body: string): Promise<void>;
  /** Rebuilds the engine's index structures from the rows (SQLite: FTS5 'rebuild'; PostgreSQL: REINDEX). */
  rebuild(): Promise<void>;
  /** Bytes the database takes (SQLite: its pages; PostgreSQL: the schema's tables with their indexes). */
  databaseBytes(): Promise<number>;
}

/** Where each kind's rows are, how to tell a live one and what time sorts it. */
interface KindSource {
  readonly indexed: IndexedTable;
  /** FROM clause naming the row `x` (and, for files, `f`), joined to the index on SQLite. */
  readonly from: (viaFts: boolean) => string;
  readonly id: string;
  readonly group: string;
  readonly at: string;
  readonly live: string;
}

const indexedTable = (table: IndexedTable["table"]) => INDEXED_TABLES.find((t) => t.table === table)!;
const ftsJoin = (table: IndexedTable["table"], key: string) =>
  `${ftsTableOf(table)} INNER JOIN ${table} x ON x.${key} = ${ftsTableOf(table)}.rowid`;

const SOURCES: Readonly<Record<SearchKind, KindSource>> = {
  BOARD: {
    indexed: indexedTable("topics"),
    from: (fts) => (fts ? ftsJoin("topics", "id") : "topics x"),
    id: "x.id",
    group: "x.group_id",
    at: "x.updated_at",
    live: "x.trashed = 0",
  },
  COMMENT: {
    indexed: indexedTable("comments"),
    from: (fts) => (fts ? ftsJoin("comments", "id") : "comments x"),
    id: "x.id",
    group: "x.group_id",
    at: "x.created_at",
    live: "1 = 1",
  },
  TASK: {
    indexed: indexedTable("tasks"),
    from: (fts) => (fts ? ftsJoin("tasks", "id") : "tasks x"),
    id: "x.id",
    group: "x.group_id",
    at: "x.updated_at",
    live: "x.trashed = 0",
  },
  CABINET: {
    indexed: indexedTable("file_search_texts"),
    from: (fts) =>
      `${fts ? ftsJoin("file_search_texts", "file_id") : "file_search_texts x"} INNER JOIN files f ON f.id = x.file_id`,
    id: "f.id",
    group: "f.group_id",
    at: "f.updated_at",
    live: "f.trashed = 0",
  },
};

/** `%term%` for LIKE with `\` as the escape character. */
function containing(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** An FTS5 query: every term as a quoted string (the trigram tokenizer matches it as a substring). */
function ftsMatch(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replace(/"/g, '""')}"`).join(" AND ");
}

/** Search queries: the same statement shape on both engines but for how a term is matched. */
export function searchRepo(db: Kysely<Database>, engine: Engine): SearchRepo {
  const like = engine === "sqlite" ? sql.raw("LIKE") : sql.raw("ILIKE");
  const joined = (userId: number) =>
    sql`(SELECT m.group_id FROM memberships m WHERE m.user_id = ${userId} AND m.status = 'JOIN')`;

  /** One kind's hits as (kind, id, group_id, at) rows. */
  const kindHits = (kind: SearchKind, filter: SearchFilter): RawBuilder<unknown> => {
    const source = SOURCES[kind];
    const text = sql.raw(searchedText(source.indexed, "x"));
    const { terms, excluded, mode } = filter.query;
    const inGroups = sql`${sql.raw(source.group)} IN ${joined(filter.userId)}${
      filter.groupId === null ? sql`` : sql` AND ${sql.raw(source.group)} = ${filter.groupId}`
    }`;
    const not = excluded.map((term) => sql` AND NOT (${text} ${like} ${containing(term)} ESCAPE '\\')`);
    const select = sql`SELECT ${sql.lit(kind)} AS kind, ${sql.raw(source.id)} AS id, ${sql.raw(source.group)} AS group_id, ${sql.raw(source.at)} AS at`;
    if (mode === "scan") {
      // Terms under three characters: the newest items of the caller's groups, matched one by one.
      const has = terms.map((term) => sql` AND ${text} ${like} ${containing(term)} ESCAPE '\\'`);
      return sql`SELECT * FROM (${select} FROM ${sql.raw(source.from(false))}
        WHERE ${sql.raw(source.live)} AND ${inGroups}${sql.join([...has, ...not], sql``)}
        ORDER BY ${sql.raw(source.id)} DESC LIMIT ${SEARCH_LIMITS.scanItemsPerKind}) ${sql.raw(`scan_${kind.toLowerCase()}`)}`;
    }
    if (engine === "sqlite") {
      const fts = sql.raw(ftsTableOf(source.indexed.table));
      return sql`${select} FROM ${sql.raw(source.from(true))}
        WHERE ${fts} MATCH ${ftsMatch(terms)} AND ${sql.raw(source.live)} AND ${inGroups}${sql.join(not, sql``)}`;
    }
    // PostgreSQL: ILIKE on exactly the indexed expression, which the GIN trigram index serves.
    const has = terms.map((term) => sql` AND ${text} ILIKE ${containing(term)} ESCAPE '\\'`);
    return sql`${select} FROM ${sql.raw(source.from(false))}
      WHERE ${sql.raw(source.live)} AND ${inGroups}${sql.join([...has, ...not], sql``)}`;
  };

  const union = (filter: SearchFilter) =>
    sql.join(
      filter.kinds.map((kind) => kindHits(kind, filter)),
      sql` UNION ALL `,
    );

  return {
    async find(filter, page) {
      if (filter.kinds.length === 0) return [];
      const rows = await sql<{ kind: SearchKind; id: number; group_id: number; at: number }>`
        SELECT kind, id, group_id, at FROM (${union(filter)}) hits
        ORDER BY at DESC, kind, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`.execute(db);
      return rows.rows.map((row) => ({
        kind: row.kind,
        id: Number(row.id),
        groupId: Number(row.group_id),
        at: Number(row.at),
      }));
    },
    async count(filter) {
      if (filter.kinds.length === 0) return 0;
      const rows = await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM (${union(filter)}) hits`.execute(db);
      return Number(rows.rows[0]?.n ?? 0);
    },
    async fileTexts(fileIds) {
      if (fileIds.length === 0) return new Map();
      const rows = await db
        .selectFrom("file_search_texts")
        .select(["file_id", "body"])
        .where("file_id", "in", fileIds)
        .execute();
      return new Map(rows.map((row) => [row.file_id, row.body]));
    },
    async filesToIndex() {
      const rows = await db
        .selectFrom("files as f")
        .innerJoin("file_versions as v", (join) =>
          join.onRef("v.file_id", "=", "f.id").onRef("v.version_number", "=", "f.current_version"),
        )
        .select(["f.id", "f.title", "f.memo", "v.file_name", "v.mime_type", "v.blob_key"])
        .orderBy("f.id")
        .execute();
      return rows.map((row) => ({
        id: row.id,
        title: row.title,
        memo: row.memo,
        fileName: row.file_name,
        mimeType: row.mime_type,
        blobKey: row.blob_key,
      }));
    },
    async setFileText(fileId, body) {
      await db
        .insertInto("file_search_texts")
        .values({ file_id: fileId, body })
        .onConflict((oc) => oc.column("file_id").doUpdateSet({ body }))
        .execute();
    },
    async databaseBytes() {
      const query =
        engine === "sqlite"
          ? sql<{
              n: number | string;
            }>`SELECT (SELECT page_count FROM pragma_page_count()) * (SELECT page_size FROM pragma_page_size()) AS n`
          : sql<{ n: number | string }>`SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) AS n FROM pg_class c
              INNER JOIN pg_namespace ns ON ns.oid = c.relnamespace WHERE ns.nspname = current_schema() AND c.relkind = 'r'`;
      return Number((await query.execute(db)).rows[0]?.n ?? 0);
    },
    async rebuild() {
      for (const { table } of INDEXED_TABLES) {
        if (engine === "sqlite") {
          const fts = ftsTableOf(table);
          await sql.raw(`INSERT INTO ${fts} (${fts}) VALUES ('rebuild')`).execute(db);
        } else {
          await sql.raw(`REINDEX INDEX ${trigramIndexOf(table)}`).execute(db);
        }
      }
    },
  };
}
