// What the portable archive holds, member by member (archive-zip-write.ts writes them into a zip):
// per group, every archived table as pages of ARCHIVE_PAGE rows (each page read in its own read,
// the next one read before a page is written, to know whether it links to a next page), the stored
// bytes each page's rows name, then the accounts those rows name. Nothing holds more than two
// pages and the set of the people's ids.
import type { Readable } from "node:stream";
import {
  ACCOUNT_SPEC,
  ARCHIVE_PAGE,
  ARCHIVE_TABLES,
  CHAT_TABLES,
  ArchiveError,
  type ArchiveRow,
  type ArchiveTable,
  TABLE_SPECS,
  type TableSpec,
  blobPath,
  chatPagePath,
  pagePath,
} from "../../domain/archive.js";
import { formatGroupId } from "../../domain/item-id.js";
import type { CabinetFile } from "../../domain/file.js";
import type { Group } from "../../domain/group.js";
import type { Task } from "../../domain/task.js";
import type { Topic } from "../../domain/topic.js";
import { type CommentDetail, detailComments } from "../comment/comment-detail.js";
import type { ServiceContext } from "../context.js";
import { type EventEntry, wholeEntry } from "../event/event.js";

/** One member of the archive: text, or stored bytes opened when its turn comes. */
export interface ArchiveMember {
  readonly name: string;
  readonly body: string | (() => Promise<Readable>);
  /** The table (or `accounts`, `blobs`) whose rows it holds, and how many. */
  readonly kind: string;
  readonly rows: number;
}

/** A page of rows as read, for present/archive.ts to write: where it is, its neighbours, the people it names. */
export interface ArchivePageData {
  readonly path: string;
  readonly table: ArchiveTable | "users";
  readonly spec: TableSpec;
  readonly rows: readonly ArchiveRow[];
  /** The names of the people its rows' authors are. */
  readonly names: ReadonlyMap<number, string>;
  /** The rows as the API shows them, by id (topics, tasks, files). */
  readonly items: ReadonlyMap<number, ApiItem>;
  readonly groupId?: number;
  readonly prev?: string;
  readonly next?: string;
}

/** A row as the API shows it, for the entries of topics, tasks and files (the API's own presenters). */
export type ApiItem =
  | { readonly kind: "topics"; readonly group: Group; readonly topic: Topic }
  | { readonly kind: "tasks"; readonly group: Group; readonly task: Task }
  | { readonly kind: "files"; readonly group: Group; readonly file: CabinetFile }
  | { readonly kind: "events"; readonly group: Group; readonly entry: EventEntry }
  | { readonly kind: "comments"; readonly detail: CommentDetail };

/** What the archive holds, in order: pages of rows, and stored bytes. */
export type ArchivePart =
  { readonly kind: "page"; readonly page: ArchivePageData } | { readonly kind: "blob"; readonly member: ArchiveMember };

/**
 * The groups to export: those asked for, each checked, or every group.
 * @throws ArchiveError a group that does not exist
 */
export async function exportGroups(ctx: ServiceContext, asked: readonly number[] | undefined): Promise<number[]> {
  const all = await ctx.store.read((tx) => tx.archive.groupIds());
  if (asked === undefined || asked.length === 0) return all;
  const known = new Set(all);
  for (const id of asked) if (!known.has(id)) throw new ArchiveError(`there is no group ${formatGroupId(id)}`);
  return [...new Set(asked)];
}

/**
 * The archive's parts in order (the manifest, which needs them all, is the writer's): each group's
 * tables, then, with `chat` (the whole site's archive), every chat room, then the accounts.
 */
export async function* archiveParts(
  ctx: ServiceContext,
  groupIds: readonly number[],
  options: { readonly chat: boolean },
): AsyncGenerator<ArchivePart> {
  const people = new Set<number>();
  for (const groupId of groupIds)
    for (const table of ARCHIVE_TABLES)
      yield* tablePages(ctx, { groupId, path: (feed, n) => pagePath(groupId, feed, n) }, table, people);
  if (options.chat)
    for (const table of CHAT_TABLES) yield* tablePages(ctx, { groupId: 0, path: chatPagePath }, table, people);
  yield* accountPages(
    ctx,
    [...people].sort((a, b) => a - b),
  );
}

/** Where a table's pages are: a group's (its id), or the site's (chat: 0). */
interface PageScope {
  readonly groupId: number;
  readonly path: (feed: string, page: number) => string;
}

async function* tablePages(
  ctx: ServiceContext,
  { groupId, path: pathOf }: PageScope,
  table: ArchiveTable,
  people: Set<number>,
): AsyncGenerator<ArchivePart> {
  const spec = TABLE_SPECS[table];
  const read = (after: number) => ctx.store.read((tx) => tx.archive.page(table, groupId, after, ARCHIVE_PAGE));
  let rows = await read(0);
  let readSoFar = 0;
  for (let number = 1; rows.length > 0 || number === 1; number++) {
    readSoFar += rows.length;
    const last = rows.at(-1);
    const after = spec.key[0] === "id" ? Number(last?.id ?? 0) : readSoFar;
    const next = rows.length === ARCHIVE_PAGE ? await read(after) : [];
    for (const row of rows)
      for (const [column, target] of Object.entries(spec.refs)) noteUser(people, target, row[column]);
    const path = pathOf(spec.feed, number);
    const prev = number === 1 ? undefined : pathOf(spec.feed, number - 1);
    const following = next.length === 0 ? undefined : pathOf(spec.feed, number + 1);
    const where = { path, ...(groupId === 0 ? {} : { groupId }), prev, next: following };
    yield { kind: "page", page: await pageData(ctx, spec, table, rows, where) };
    for (const row of rows) for (const member of blobsOf(ctx, table, spec, row)) yield { kind: "blob", member };
    if (next.length === 0) return;
    rows = next;
  }
}

async function* accountPages(ctx: ServiceContext, ids: readonly number[]): AsyncGenerator<ArchivePart> {
  const pages = Math.max(1, Math.ceil(ids.length / ARCHIVE_PAGE));
  for (let number = 1; number <= pages; number++) {
    const slice = ids.slice((number - 1) * ARCHIVE_PAGE, number * ARCHIVE_PAGE);
    const rows = await ctx.store.read((tx) => tx.archive.accounts(slice));
    const where = {
      path: `accounts-${number}.atom`,
      prev: number === 1 ? undefined : `accounts-${number - 1}.atom`,
      next: number === pages ? undefined : `accounts-${number + 1}.atom`,
    };
    yield { kind: "page", page: await pageData(ctx, ACCOUNT_SPEC, "users", rows, where) };
  }
}

/** A page's rows with the names of the people who wrote them. */
async function pageData(
  ctx: ServiceContext,
  spec: TableSpec,
  table: ArchiveTable | "users",
  rows: readonly ArchiveRow[],
  where: { path: string; groupId?: number; prev: string | undefined; next: string | undefined },
): Promise<ArchivePageData> {
  const authors = new Set<number>();
  if (spec.author !== undefined)
    for (const row of rows) {
      const id = row[spec.author];
      if (typeof id === "number") authors.add(id);
    }
  const names = await ctx.store.read((tx) => tx.archive.names([...authors]));
  const items =
    where.groupId === undefined ? new Map<number, ApiItem>() : await apiItems(ctx, table, where.groupId, rows);
  return {
    items,
    path: where.path,
    table,
    spec,
    rows,
    names,
    ...(where.groupId === undefined ? {} : { groupId: where.groupId }),
    ...(where.prev === undefined ? {} : { prev: where.prev }),
    ...(where.next === undefined ? {} : { next: where.next }),
  };
}

/** The page's topics, tasks or files as the API reads them (none for other tables). */
async function apiItems(
  ctx: ServiceContext,
  table: ArchiveTable | "users",
  groupId: number,
  rows: readonly ArchiveRow[],
): Promise<Map<number, ApiItem>> {
  const items = new Map<number, ApiItem>();
  if (!API_TABLES.has(table)) return items;
  const ids = rows.map((row) => Number(row.id));
  await ctx.store.read(async (tx) => {
    const group = await tx.groups.findById(groupId);
    if (group === undefined) return;
    if (table === "tasks")
      for (const task of await tx.tasks.findMany(ids)) items.set(task.id, { kind: "tasks", group, task });
    if (table === "events")
      for (const event of await tx.events.findByIds(ids))
        items.set(event.id, { kind: "events", group, entry: wholeEntry(event) });
    if (table === "comments") {
      const comments = [];
      for (const id of ids) {
        const comment = await tx.comments.findById(id);
        if (comment) comments.push(comment);
      }
      // Read as nobody's: no like or favorite of the reader's own, only the counts.
      for (const detail of await detailComments(tx, 0, comments))
        items.set(detail.comment.id, { kind: "comments", detail });
    }
    for (const id of table === "topics" || table === "files" ? ids : []) {
      if (table === "topics") {
        const topic = await tx.topics.findById(id);
        if (topic) items.set(id, { kind: "topics", group, topic });
      } else {
        const file = await tx.files.findById(id);
        if (file) items.set(id, { kind: "files", group, file });
      }
    }
  });
  return items;
}

/** The tables whose entries the API's own presenters write. */
const API_TABLES: ReadonlySet<string> = new Set(["topics", "tasks", "files", "events", "comments"]);

function* blobsOf(
  ctx: ServiceContext,
  table: ArchiveTable,
  spec: TableSpec,
  row: ArchiveRow,
): Generator<ArchiveMember> {
  for (const column of spec.blobs ?? []) {
    const key = row[column];
    if (typeof key !== "string") continue;
    const name = blobPath(table, Number(row.id), column);
    yield {
      name,
      kind: "blobs",
      rows: 1,
      body: async () => {
        const stream = await ctx.blobs.open(key);
        if (stream === undefined) throw new ArchiveError(`the stored bytes of ${name} are missing from the blob store`);
        return stream;
      },
    };
  }
}

function noteUser(people: Set<number>, target: string, value: string | number | null | undefined): void {
  if (target === "users" && typeof value === "number") people.add(value);
}
