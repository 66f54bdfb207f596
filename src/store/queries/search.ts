import { type Kysely, type RawBuilder, sql } from "kysely";
import { SEARCH_LIMITS } from "../../domain/limits.js";
import type { SearchKind, SearchQuery } from "../../domain/search.js";
import type { Database } from "../schema.js";
import type { PageWindow } from "../page-window.js";
import { INDEXED_TABLES, ftsTableOf, searchedText, trigramIndexOf } from "../search-index.js";
import { type KindSource, SOURCES, containing, ftsMatch } from "./search-sources.js";
import type { Engine } from "./engine.js";

/** What to look for and where: the caller's joined groups, or one of them, and some kinds. */
export interface SearchFilter {
  readonly userId: number;
  readonly query: SearchQuery;
  readonly kinds: readonly SearchKind[];
  /** Only this group (still only when the user has joined it); null: all their groups. */
  readonly groupId: number | null;
}

/** One found item: its kind, id, group (0: none) and the time lists sort it by (updated; a comment's or message's creation). */
export interface SearchHit {
  readonly kind: SearchKind;
  readonly id: number;
  readonly groupId: number;
  readonly at: number;
}

/** Where a found chat message is: its room and its number there. */
export interface ChatHitPlace {
  readonly id: number;
  readonly roomId: number;
  readonly number: number;
}

/**
 * A page of hits. Each kind counts at most `SEARCH_LIMITS.countedHitsPerKind` hits, its newest by
 * creation; `bounded`: a kind reached that bound, so more exist than `total` says.
 */
export interface SearchPage {
  readonly hits: readonly SearchHit[];
  readonly total: number;
  readonly bounded: boolean;
}

interface HitRow {
  readonly kind: SearchKind;
  readonly id: number | string;
  readonly group_id: number | string;
  readonly at: number | string;
  readonly total: number | string;
  readonly fullest: number | string;
}

const totalOf = (row: HitRow | undefined) => ({
  total: Number(row?.total ?? 0),
  bounded: Number(row?.fullest ?? 0) >= SEARCH_LIMITS.countedHitsPerKind,
});

/** The full-text index (search-index.ts): searching it, and rebuilding it (`kairan reindex`). */
export interface SearchRepo {
  /** A page of the counted hits, newest first (time, then kind and id), and how many there are. */
  find(filter: SearchFilter, page: PageWindow): Promise<SearchPage>;
  /** The rooms and numbers of chat messages, by message id. */
  chatPlaces(messageIds: readonly number[]): Promise<ChatHitPlace[]>;
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

/** Search queries: the same statement shape on both engines but for how a term is matched. */
export function searchRepo(db: Kysely<Database>, engine: Engine): SearchRepo {
  const like = engine === "sqlite" ? sql.raw("LIKE") : sql.raw("ILIKE");
  /** The groups searched: the user's joined ones, or the one asked for if joined. */
  const searchedGroups = async (filter: SearchFilter): Promise<number[]> => {
    let query = db
      .selectFrom("memberships")
      .select("group_id")
      .where("user_id", "=", filter.userId)
      .where("status", "=", "JOIN");
    if (filter.groupId !== null) query = query.where("group_id", "=", filter.groupId);
    return (await query.execute()).map((row) => Number(row.group_id));
  };

  /**
   * One kind's hits as (kind, id, group_id, at) rows: the newest `countedHitsPerKind` by id (the
   * index's own order, so a common term stops early instead of sorting every match).
   */
  const kindHits = (kind: SearchKind, filter: SearchFilter, groupIds: readonly number[]): RawBuilder<unknown> => {
    const source = SOURCES[kind];
    const text = sql.raw(searchedText(source.indexed, "x"));
    const { terms, excluded, mode } = filter.query;
    const inGroups = scopeOf(source, filter.userId, groupIds);
    const not = excluded.map((term) => sql` AND NOT (${text} ${like} ${containing(term)} ESCAPE '\\')`);
    const select = sql`SELECT ${sql.lit(kind)} AS kind, ${sql.raw(source.id)} AS id, ${sql.raw(source.group)} AS group_id, ${sql.raw(source.at)} AS at`;
    const alias = sql.raw(`hits_${kind.toLowerCase()}`);
    if (mode === "scan") {
      // Terms under three characters: the newest items of the caller's groups, matched one by one.
      const has = terms.map((term) => sql` AND ${text} ${like} ${containing(term)} ESCAPE '\\'`);
      const scanned = sql`SELECT x.* FROM ${sql.raw(source.from(false))} WHERE ${sql.raw(source.live)} AND ${inGroups}
        ORDER BY ${sql.raw(source.id)} DESC LIMIT ${SEARCH_LIMITS.scanItemsPerKind}`;
      const from =
        kind === "CABINET" ? sql`(${scanned}) x INNER JOIN files f ON f.id = x.file_id` : sql`(${scanned}) x`;
      return sql`SELECT * FROM (${select} FROM ${from} WHERE 1 = 1${sql.join([...has, ...not], sql``)}
        ORDER BY ${sql.raw(source.id)} DESC LIMIT ${SEARCH_LIMITS.countedHitsPerKind}) ${alias}`;
    }
    if (engine === "sqlite") {
      // The FTS table drives the loop in rowid order (descending), each match checked by its row.
      const fts = sql.raw(ftsTableOf(source.indexed.table));
      return sql`SELECT * FROM (${select} FROM ${sql.raw(source.from(true))}
        WHERE ${fts} MATCH ${ftsMatch(terms)} AND ${sql.raw(source.live)} AND ${inGroups}${sql.join(not, sql``)}
        ORDER BY ${fts}.rowid DESC LIMIT ${SEARCH_LIMITS.countedHitsPerKind}) ${alias}`;
    }
    // PostgreSQL: ILIKE on exactly the indexed expression, which the GIN trigram index serves.
    const has = terms.map((term) => sql` AND ${text} ILIKE ${containing(term)} ESCAPE '\\'`);
    return sql`SELECT * FROM (${select} FROM ${sql.raw(source.from(false))}
      WHERE ${sql.raw(source.live)} AND ${inGroups}${sql.join([...has, ...not], sql``)}
      ORDER BY ${sql.raw(source.id)} DESC LIMIT ${SEARCH_LIMITS.countedHitsPerKind}) ${alias}`;
  };

  const union = (filter: SearchFilter, groupIds: readonly number[]) =>
    sql.join(
      searchedKinds(filter, groupIds).map((kind) => kindHits(kind, filter, groupIds)),
      sql` UNION ALL `,
    );

  /** Every kind's counted hits, with how many there are and whether a kind reached its bound. */
  const counted = (filter: SearchFilter, groupIds: readonly number[]) => sql`SELECT k.*, COUNT(*) OVER () AS total,
      MAX(k.per_kind) OVER () AS fullest FROM (
        SELECT u.*, COUNT(*) OVER (PARTITION BY u.kind) AS per_kind FROM (${union(filter, groupIds)}) u) k`;

  return {
    async find(filter, page) {
      const groupIds = filter.kinds.length === 0 ? [] : await searchedGroups(filter);
      if (searchedKinds(filter, groupIds).length === 0) return { hits: [], total: 0, bounded: false };
      const rows =
        await sql<HitRow>`SELECT kind, id, group_id, at, total, fullest FROM (${counted(filter, groupIds)}) hits
        ORDER BY at DESC, kind, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`.execute(db);
      const first = rows.rows[0];
      if (first === undefined) {
        // Past the last page (or no hit): the count alone.
        if (page.offset === 0) return { hits: [], total: 0, bounded: false };
        const all =
          await sql<HitRow>`SELECT kind, id, group_id, at, total, fullest FROM (${counted(filter, groupIds)}) hits
          LIMIT 1`.execute(db);
        return { hits: [], ...totalOf(all.rows[0]) };
      }
      return {
        hits: rows.rows.map((row) => ({
          kind: row.kind,
          id: Number(row.id),
          groupId: Number(row.group_id),
          at: Number(row.at),
        })),
        ...totalOf(first),
      };
    },
    async chatPlaces(messageIds) {
      if (messageIds.length === 0) return [];
      const rows = await db
        .selectFrom("chat_messages")
        .select(["id", "room_id", "number"])
        .where("id", "in", messageIds)
        .execute();
      return rows.map((row) => ({ id: row.id, roomId: row.room_id, number: row.number }));
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

/**
 * The kinds a search covers: a kind of the groups only when some group is searched, and the
 * reader's own kinds (personal events, chat) only when no one group is asked for.
 */
function searchedKinds(filter: SearchFilter, groupIds: readonly number[]): SearchKind[] {
  return filter.kinds.filter((kind) =>
    SOURCES[kind].scope === "groups" ? groupIds.length > 0 : filter.groupId === null,
  );
}

/** The condition that keeps a kind's rows to what the reader may see. */
function scopeOf(source: KindSource, userId: number, groupIds: readonly number[]): RawBuilder<unknown> {
  const column = sql.raw(source.scopeColumn ?? source.group);
  // A list of values, not a subquery: PostgreSQL otherwise joins and scans the index once per group.
  if (source.scope === "groups") return sql`${column} IN (${sql.join(groupIds.map((id) => sql.lit(id)))})`;
  if (source.scope === "owner") return sql`${column} = ${sql.lit(userId)}`;
  return sql`${column} IN (SELECT room_id FROM chat_members WHERE user_id = ${sql.lit(userId)})`;
}
