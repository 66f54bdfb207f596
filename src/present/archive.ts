// The pages of the portable archive (services/archive/ reads their rows): Atom documents in the
// style of RFC 5005's archived feeds (`<fh:archive/>`, `prev-archive` and `next-archive` links to
// the neighbouring pages), written with the API's own feed head and entry shape (feed.ts): each
// entry carries what clients read (id, title, links, categories, author, updated, summary), then,
// after it, the row as it is stored, in `<kairan:record>`, for a restore that loses nothing.
import { element } from "../atom/build.js";
import {
  ARCHIVE_NS,
  type ArchiveRow,
  type ArchiveTable,
  HISTORY_NS,
  type TableSpec,
  blobPath,
} from "../domain/archive.js";
import { formatCommentId, formatContentId, formatGroupId } from "../domain/item-id.js";
import type { ContentKind } from "../domain/kinds.js";
import type { ApiItem, ArchiveMember, ArchivePart } from "../services/archive/archive-export.js";
import type { Locale } from "../domain/task.js";
import { commentEntry } from "./comment.js";
import { eventEntry } from "./event.js";
import { fileEntry } from "./file.js";
import { taskEntry } from "./task.js";
import { topicEntry } from "./topic.js";
import { EMPTY_AUTHOR, type Viewer, authorElement, feedParts, itemEntry } from "./feed.js";
import { commentLinks, contentLinks, groupLinks } from "../domain/item-links.js";

/** The feed's author: the archive is the site's, not a person's. */
const ARCHIVE_AUTHOR: Viewer = { id: 0, name: "Kairan", email: "" };

/** One page: where it is, its neighbours, and the time of the export. */
export interface ArchivePage {
  readonly baseUrl: string;
  /** The page's path in the archive (`groups/1/topics-2.atom`). */
  readonly path: string;
  readonly title: string;
  /** The group's id for the alternate link (none: the site's accounts). */
  readonly groupId?: number;
  readonly prev?: string;
  readonly next?: string;
  readonly now: number;
}

/** A page's text before its entries and after them. */
export function archivePageParts(page: ArchivePage): { readonly start: string; readonly end: string } {
  const name = (path: string) => path.slice(path.lastIndexOf("/") + 1);
  const extra =
    `<fh:archive/>` +
    (page.prev === undefined ? "" : element("link", { rel: "prev-archive", href: name(page.prev) })) +
    (page.next === undefined ? "" : element("link", { rel: "next-archive", href: name(page.next) }));
  const { start, end } = feedParts({
    title: page.title,
    id: `${page.baseUrl}/archive/${page.path}`,
    alternate: page.groupId === undefined ? page.baseUrl : groupLinks(page.baseUrl, page.groupId).alternate,
    viewer: ARCHIVE_AUTHOR,
    updated: page.now,
    extra,
  });
  // The archive's two namespaces join the API's on the root element.
  return { start: start.replace("<feed ", `<feed xmlns:fh="${HISTORY_NS}" xmlns:kairan="${ARCHIVE_NS}" `), end };
}

/** What an entry needs besides its row: the names of the people rows name. */
export interface EntryContext {
  readonly baseUrl: string;
  readonly names: ReadonlyMap<number, string>;
}

/** The entry of one row of `table`. */
export function archiveEntry(
  context: EntryContext,
  table: ArchiveTable | "users",
  spec: TableSpec,
  row: ArchiveRow,
): string {
  const { baseUrl } = context;
  const groupId = table === "groups" ? Number(row.id) : numberOf(row.group_id);
  const kind = spec.kind;
  let id: string;
  let links = { alternate: baseUrl, mobile: `${baseUrl}/m` };
  if (kind !== undefined && groupId !== undefined) {
    const ref = { kind, groupId, id: Number(row.id) };
    id = formatContentId(ref);
    links = contentLinks(baseUrl, ref);
  } else if (table === "comments" && groupId !== undefined) {
    const parent = { kind: String(row.parent_kind) as ContentKind, groupId, id: Number(row.parent_id) };
    id = formatCommentId(parent, Number(row.number));
    links = commentLinks(baseUrl, parent, Number(row.number));
  } else if (table === "groups") {
    id = formatGroupId(Number(row.id));
    links = groupLinks(baseUrl, Number(row.id));
  } else {
    id = `urn:kairan:${table}:${spec.key.map((column) => String(row[column])).join("/")}`;
    if (groupId !== undefined) links = groupLinks(baseUrl, groupId);
  }
  const authorId = spec.author === undefined ? undefined : numberOf(row[spec.author]);
  return itemEntry(
    {
      id,
      title: spec.title === undefined ? id : String(row[spec.title] ?? ""),
      links,
      author: authorId === undefined ? EMPTY_AUTHOR : authorElement(context.names.get(authorId) ?? "", authorId),
      // A row without a time of its own (an event's participant) gives the epoch: never the export's time.
      updated: (spec.time === undefined ? undefined : numberOf(row[spec.time])) ?? 0,
      summary: summaryOf(table, row),
    },
    recordElement(table, spec, row),
  );
}

/** `<kairan:record table="...">`: every archived column as an attribute; NULL leaves it out. */
function recordElement(table: ArchiveTable | "users", spec: TableSpec, row: ArchiveRow): string {
  const attributes: Record<string, string | number | undefined> = { table };
  for (const column of spec.columns) {
    const value = row[column];
    if (value === null || value === undefined) continue;
    attributes[column] =
      spec.blobs?.includes(column) === true && table !== "users"
        ? blobPath(table, Number(row.id), column)
        : typeof value === "number"
          ? value
          : String(value);
  }
  return element("kairan:record", attributes);
}

/** The text a reader sees first: a post's body, a task's summary, a file's memo, an event's memo. */
function summaryOf(table: ArchiveTable | "users", row: ArchiveRow): string {
  const column =
    table === "topics" || table === "comments" || table === "chat_messages"
      ? "body"
      : table === "tasks" || table === "groups"
        ? "summary"
        : table === "files" || table === "events"
          ? "memo"
          : table === "file_versions"
            ? "comment"
            : undefined;
  return column === undefined ? "" : String(row[column] ?? "");
}

function numberOf(value: string | number | null | undefined): number | undefined {
  return typeof value === "number" ? value : undefined;
}

/** The archive's members: each page of rows written as its Atom document, stored bytes as they are. */
export async function* archiveMembers(
  parts: AsyncIterable<ArchivePart>,
  baseUrl: string,
  now: number,
  locale: Locale,
): AsyncGenerator<ArchiveMember> {
  for await (const part of parts) {
    if (part.kind === "blob") {
      yield part.member;
      continue;
    }
    const { page } = part;
    const { start, end } = archivePageParts({
      baseUrl,
      path: page.path,
      title: `${page.table} (${page.path})`,
      ...(page.groupId === undefined ? {} : { groupId: page.groupId }),
      ...(page.prev === undefined ? {} : { prev: page.prev }),
      ...(page.next === undefined ? {} : { next: page.next }),
      now,
    });
    const context = { baseUrl, names: page.names };
    const entry = (row: ArchiveRow) => {
      const item = page.items.get(Number(row.id));
      return item === undefined
        ? archiveEntry(context, page.table, page.spec, row)
        : withRecord(apiEntry(baseUrl, item, locale), recordElement(page.table, page.spec, row));
    };
    yield {
      name: page.path,
      kind: page.table === "users" ? "accounts" : page.table,
      rows: page.rows.length,
      body: start + page.rows.map(entry).join("") + end,
    };
  }
}

/** A topic's, task's or file's entry as the API writes it (not as anyone's: never confirmed, no comments). */
function apiEntry(baseUrl: string, item: ApiItem, locale: Locale): string {
  switch (item.kind) {
    case "topics":
      return topicEntry(baseUrl, item.group, item.topic, undefined);
    case "tasks":
      return taskEntry(baseUrl, item.group, item.task, { locale, confirmed: false, comments: undefined });
    case "files":
      return fileEntry(baseUrl, item.group, item.file, undefined);
    case "events":
      return eventEntry(baseUrl, item.group, item.entry, undefined);
    case "comments":
      return commentEntry(baseUrl, item.detail, { withContent: false });
  }
}

/** The entry with Kairan's record after everything clients read. */
function withRecord(entry: string, record: string): string {
  return `${entry.slice(0, -"</entry>".length)}${record}</entry>`;
}
