// `kairan import FILE`: a portable archive (checked whole by archive-zip-read.ts) read into this
// site in one transaction. Accounts first: one with the same address is the same person; the others
// arrive as placeholders (account-write.ts), claimable by an invitation. Then each group, its tables
// parents first (domain/archive.ts's order): a row keeps its id where the id is free and takes a new
// one where it is not, and every column naming a row is rewritten through the ids given so far.
// What each row became is remembered in import_keys (per group, as the CSV import does): a second
// import of the same archive finds every row and writes nothing. Stored files are copied into the
// blob store as their rows are written; a failure removes them again.
import { pipeline } from "node:stream/promises";
import {
  ACCOUNT_SPEC,
  ARCHIVE_TABLES,
  CHAT_TABLES,
  ArchiveError,
  type ArchiveRow,
  type ArchiveTable,
  ITEM_TABLES,
  type RefTarget,
  TABLE_SPECS,
  type TableSpec,
  chatPagePath,
  groupKey,
  pagePath,
  rowKey,
} from "../../domain/archive.js";
import { directKey as directKeyOf } from "../../domain/chat.js";
import { formatGroupId } from "../../domain/item-id.js";
import { newBlobKey } from "../../blobs/blob-store.js";
import type { Tx } from "../../store/store.js";
import { insertArchivedAccount } from "../account/account-write.js";
import type { ServiceContext } from "../context.js";
import type { OpenArchive } from "./archive-zip-read.js";

/** What an import did: the groups (the archive's id to this site's), rows created and found, ids changed. */
export interface ArchiveImportReport {
  readonly groups: Record<string, string>;
  readonly created: Record<string, number>;
  readonly found: Record<string, number>;
  /** Rows whose id was taken here, written under a new one. */
  readonly renumbered: Record<string, number>;
}

/**
 * Reads one page of the archive into rows of `table` (present/archive-read.ts: the XML parser is
 * the edges', so the command gives it to the service). @throws ArchiveError
 */
export type PageReader = (label: string, name: string, text: string, table: string, spec: TableSpec) => ArchiveRow[];

/** One import's state: the transaction, the ids given so far, the tallies, the stored files written. */
interface Run {
  readonly tx: Tx;
  readonly ctx: ServiceContext;
  readonly archive: OpenArchive;
  readonly label: string;
  readonly at: number;
  readonly users: Map<number, number>;
  readonly report: ArchiveImportReport;
  readonly written: string[];
  readonly pageRows: PageReader;
}

/**
 * Imports an open, checked archive. Any failure leaves the database and the blob store as they were.
 * @throws ArchiveError a page that cannot be read, a row naming what the archive lacks
 */
export async function importArchive(
  ctx: ServiceContext,
  archive: OpenArchive,
  label: string,
  pageRows: PageReader,
): Promise<ArchiveImportReport> {
  const report: ArchiveImportReport = { groups: {}, created: {}, found: {}, renumbered: {} };
  const written: string[] = [];
  try {
    await ctx.store.transaction(async (tx) => {
      const run: Run = { tx, ctx, archive, label, at: ctx.clock.now(), users: new Map(), report, written, pageRows };
      await importAccounts(run);
      for (const groupId of archive.manifest.groups) await importGroup(run, groupId);
      await importChat(run);
    });
    return report;
  } catch (error) {
    for (const key of written) await ctx.blobs.remove(key).catch(() => undefined);
    throw error;
  }
}

/** The pages of a feed, in order: `first`, then while the archive holds the next. */
async function* pages(
  run: Run,
  path: (number: number) => string,
  table: string,
  spec: TableSpec,
): AsyncGenerator<{ name: string; rows: ArchiveRow[] }> {
  for (let number = 1; run.archive.has(path(number)); number++) {
    const name = path(number);
    yield { name, rows: run.pageRows(run.label, name, await run.archive.text(name), table, spec) };
  }
}

async function importAccounts(run: Run): Promise<void> {
  for await (const { rows } of pages(run, (number) => `accounts-${number}.atom`, "users", ACCOUNT_SPEC)) {
    for (const row of rows) {
      const oldId = Number(row.id);
      const same = await run.tx.archive.accountByEmail(String(row.email));
      if (same !== undefined) {
        run.users.set(oldId, same);
        tally(run.report.found, "accounts");
        continue;
      }
      const keep = !(await run.tx.archive.idTaken("users", oldId));
      run.users.set(oldId, await insertArchivedAccount(run.tx, row, keep, run.at));
      tally(run.report.created, "accounts");
      if (!keep) tally(run.report.renumbered, "accounts");
    }
  }
}

async function importGroup(run: Run, oldGroupId: number): Promise<void> {
  const spec = TABLE_SPECS.groups;
  const name = pagePath(oldGroupId, spec.feed, 1);
  if (!run.archive.has(name)) throw new ArchiveError(`${run.label}: ${name} is missing`);
  const [row, extra] = run.pageRows(run.label, name, await run.archive.text(name), "groups", spec);
  if (row === undefined || extra !== undefined || row.id !== oldGroupId)
    throw new ArchiveError(`${run.label}: ${name} must hold exactly the group ${formatGroupId(oldGroupId)}`);
  const key = groupKey(row);
  let groupId = await run.tx.archive.importedGroup(key);
  let keys = new Map<string, number>();
  if (groupId === undefined) {
    groupId = await insertKeepingId(run, "groups", row);
    await run.tx.importKeys.insert({ groupId, key, targetId: groupId, at: run.at });
    tally(run.report.created, "groups");
  } else {
    keys = await run.tx.importKeys.listOf(groupId);
    tally(run.report.found, "groups");
  }
  run.report.groups[formatGroupId(oldGroupId)] = formatGroupId(groupId);
  const ids = new Map<RefTarget, Map<number, number>>([
    ["users", run.users],
    ["groups", new Map([[oldGroupId, groupId]])],
  ]);
  const target = groupId;
  const scope: Scope = {
    keys,
    ids,
    path: (feed, number) => pagePath(oldGroupId, feed, number),
    remember: (rows) => run.tx.importKeys.insertMany(target, rows, run.at),
    merged: new Map(),
    numbers: new Map(),
  };
  await importTables(
    run,
    scope,
    ARCHIVE_TABLES.filter((table) => table !== "groups"),
  );
}

/** The chat of the archive of a whole site (rooms, members, messages, likes, attachments), if it has any. */
async function importChat(run: Run): Promise<void> {
  if (!run.archive.has(chatPagePath(TABLE_SPECS.chat_rooms.feed, 1))) return;
  const scope: Scope = {
    keys: await run.tx.archive.siteKeys(),
    ids: new Map([["users", run.users]]),
    path: chatPagePath,
    remember: (rows) => run.tx.archive.insertSiteKeys(rows, run.at),
    merged: new Map(),
    numbers: new Map(),
  };
  await importTables(run, scope, CHAT_TABLES);
  for (const [roomId, { next }] of scope.merged) await run.tx.archive.raiseChatLastNumber(roomId, next);
}

/** Where rows are written: what earlier imports made, the ids given so far, the pages, and how to remember. */
interface Scope {
  readonly keys: ReadonlyMap<string, number>;
  readonly ids: Map<RefTarget, Map<number, number>>;
  readonly path: (feed: string, page: number) => string;
  readonly remember: (rows: readonly { key: string; targetId: number }[]) => Promise<void>;
  /** Direct rooms that existed here, which the archived messages join: the last number given there. */
  readonly merged: Map<number, { next: number }>;
  /** The numbers the joining messages took: `<archived room>:<archived number>` to the number here. */
  readonly numbers: Map<string, number>;
}

async function importTables(run: Run, scope: Scope, tables: readonly ArchiveTable[]): Promise<void> {
  for (const table of tables) {
    const spec = TABLE_SPECS[table];
    for await (const page of pages(run, (number) => scope.path(spec.feed, number), table, spec)) {
      const made: { key: string; targetId: number }[] = [];
      for (const archived of page.rows) await writeRow(run, scope, table, page.name, archived, made);
      await scope.remember(made);
    }
  }
}

async function writeRow(
  run: Run,
  scope: Scope,
  table: ArchiveTable,
  page: string,
  archived: ArchiveRow,
  made: { key: string; targetId: number }[],
): Promise<void> {
  const spec = TABLE_SPECS[table];
  const row = rewritten(run, scope, spec, page, archived);
  if (spec.key[0] !== "id") {
    // A row without an id of its own: remembered by its archived key, and never written twice.
    const key = `archive:${table}:${spec.key.map((column) => String(archived[column])).join(":")}`;
    if (scope.keys.has(key)) return tally(run.report.found, table);
    if (table === "chat_likes") renumbered(run, scope, page, archived, row);
    const where: Record<string, string | number | null> = {};
    for (const column of [...spec.key, ...(spec.columns.includes("group_id") ? ["group_id"] : [])])
      where[column] = row[column] ?? null;
    if (await run.tx.archive.exists(table, where)) tally(run.report.found, table);
    else {
      await run.tx.archive.insert(table, row);
      tally(run.report.created, table);
    }
    made.push({ key, targetId: 0 });
    return;
  }
  const oldId = Number(archived.id);
  const ids = idsOf(scope, table);
  const key = rowKey(table, oldId);
  const known = scope.keys.get(key);
  if (known !== undefined) {
    ids.set(oldId, known);
    tally(run.report.found, table);
    return;
  }
  if (table === "chat_rooms" && typeof row.direct_key === "string") {
    row.direct_key = directKeyHere(run, page, row.direct_key);
    const same = await run.tx.chat.findDirect(row.direct_key);
    if (same !== undefined) {
      // The two people talk here already: the archived messages join their room, numbered after its own.
      ids.set(oldId, same);
      made.push({ key, targetId: same });
      scope.merged.set(same, { next: await run.tx.archive.chatLastNumber(same) });
      return tally(run.report.found, table);
    }
  }
  if (table === "chat_messages") {
    const room = scope.merged.get(Number(row.room_id));
    if (room !== undefined) {
      room.next += 1;
      scope.numbers.set(`${String(archived.room_id)}:${String(archived.number)}`, room.next);
      row.number = room.next;
    }
  }
  if (table === "chat_attachments") renumbered(run, scope, page, archived, row);
  for (const column of spec.blobs ?? []) {
    const path = row[column];
    if (typeof path === "string") row[column] = await storeBlob(run, page, path);
  }
  const id = await insertKeepingId(run, table, row);
  ids.set(oldId, id);
  made.push({ key, targetId: id });
  tally(run.report.created, table);
  if (table === "comments")
    await run.tx.archive.raiseCommentCounter(String(row.parent_kind), Number(row.parent_id), Number(row.number));
}

/** A like's or attachment's message number in a room the messages joined (renumbered there). */
function renumbered(
  run: Run,
  scope: Scope,
  page: string,
  archived: ArchiveRow,
  row: Record<string, string | number | null>,
): void {
  if (!scope.merged.has(Number(row.room_id))) return;
  const number = scope.numbers.get(`${String(archived.room_id)}:${String(archived.message_number)}`);
  if (number === undefined)
    throw new ArchiveError(
      `${run.label}: ${page}: message ${String(archived.message_number)} of room ${String(archived.room_id)} is not in the archive`,
    );
  row.message_number = number;
}

/** A direct room's key (`3:7`, its two people's ids) with the ids the people have here. */
function directKeyHere(run: Run, page: string, key: string): string {
  const [a, b] = key.split(":").map((id) => run.users.get(Number(id)));
  if (a === undefined || b === undefined)
    throw new ArchiveError(`${run.label}: ${page}: direct_key ${key.slice(0, 40)} names people the archive lacks`);
  return directKeyOf(a, b);
}

/** The row with every column naming a row rewritten to the id it has here. */
function rewritten(
  run: Run,
  scope: Scope,
  spec: TableSpec,
  page: string,
  archived: ArchiveRow,
): Record<string, string | number | null> {
  const row: Record<string, string | number | null> = { ...archived };
  const rewrite = (column: string, target: RefTarget) => {
    const value = archived[column];
    if (value === null || value === undefined) return;
    const id = idsOf(scope, target).get(Number(value));
    if (id === undefined)
      throw new ArchiveError(`${run.label}: ${page}: ${column} ${String(value)} names no ${target} row of the archive`);
    row[column] = id;
  };
  for (const [column, target] of Object.entries(spec.refs)) rewrite(column, target);
  if (spec.item !== undefined) {
    const target = ITEM_TABLES[String(archived[spec.item.kind])];
    if (target === undefined)
      throw new ArchiveError(
        `${run.label}: ${page}: ${spec.item.kind} ${String(archived[spec.item.kind])} is no kind of item`,
      );
    rewrite(spec.item.id, target);
  }
  return row;
}

function idsOf(scope: Scope, target: RefTarget): Map<number, number> {
  let ids = scope.ids.get(target);
  if (ids === undefined) {
    ids = new Map();
    scope.ids.set(target, ids);
  }
  return ids;
}

/** Inserts a row under its archived id when that is free here, else under a new one. */
async function insertKeepingId(run: Run, table: ArchiveTable, row: ArchiveRow): Promise<number> {
  const keep = !(await run.tx.archive.idTaken(table, Number(row.id)));
  if (keep) {
    const id = await run.tx.archive.insertWithId(table, row);
    await run.tx.archive.continueIds(table);
    return id;
  }
  const rest: Record<string, string | number | null> = { ...row };
  delete rest.id;
  tally(run.report.renumbered, table);
  return run.tx.archive.insertWithId(table, rest);
}

/** Copies stored bytes of the archive into the blob store under a new key. */
async function storeBlob(run: Run, page: string, path: string): Promise<string> {
  if (!path.startsWith("blobs/") || !run.archive.has(path))
    throw new ArchiveError(`${run.label}: ${page}: names stored bytes ${path.slice(0, 80)} that the archive lacks`);
  const temp = await run.ctx.blobs.createTemp();
  try {
    await pipeline(await run.archive.open(path), temp.stream);
    const key = newBlobKey();
    await run.ctx.blobs.commit(temp, key);
    run.written.push(key);
    return key;
  } catch (error) {
    await run.ctx.blobs.discard(temp);
    throw error;
  }
}

function tally(counts: Record<string, number>, kind: string): void {
  counts[kind] = (counts[kind] ?? 0) + 1;
}
