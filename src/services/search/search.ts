import { type Actor, levelAllows, requireAccess } from "../../domain/access.js";
import type { CabinetFile } from "../../domain/file.js";
import type { Group } from "../../domain/group.js";
import type { ContentRef } from "../../domain/item-id.js";
import {
  COMMENT_LEVEL_SEARCH_KINDS,
  type ExcerptPart,
  type SearchKind,
  type SearchQuery,
  excerptOf,
} from "../../domain/search.js";
import type { Task } from "../../domain/task.js";
import type { Topic } from "../../domain/topic.js";
import type { PageWindow } from "../../store/page-window.js";
import type { SearchFilter, SearchHit } from "../../store/queries/search.js";
import type { Tx } from "../../store/store.js";
import { type CommentDetail, detailComments } from "../comment/comment-detail.js";
import { requireGroupMember } from "../group/group-access.js";
import type { ServiceContext } from "../context.js";
import { type FoundOther, loadOthers } from "./search-others.js";

export type { FoundOther } from "./search-others.js";

/** A search as the API and the web ask for it. */
export interface SearchInput {
  readonly query: SearchQuery;
  /** One kind (`category`), or null for every kind of `among` the caller may read. */
  readonly kind: SearchKind | null;
  /** The kinds the asker presents (the API: a group's content; the web: everything). */
  readonly among: readonly SearchKind[];
  /** One group (`group`), or null for all the caller's groups. */
  readonly groupId: number | null;
  readonly page: PageWindow;
}

/** A found item of a group's content, loaded as its own feed shows it, with its excerpt (what the API presents). */
export type FoundContent = { readonly group: Group; readonly excerpt: readonly ExcerptPart[] } & (
  | { readonly kind: "BOARD"; readonly topic: Topic }
  | { readonly kind: "COMMENT"; readonly detail: CommentDetail; readonly parentTitle: string }
  | { readonly kind: "TASK"; readonly task: Task; readonly confirmed: boolean }
  | { readonly kind: "CABINET"; readonly file: CabinetFile }
);

/** A found item with its excerpt. */
export type FoundItem = FoundContent | FoundOther;

/** Whether a found item is a group's content (the API's kinds). */
export function isFoundContent(item: FoundItem): item is FoundContent {
  return item.kind === "BOARD" || item.kind === "COMMENT" || item.kind === "TASK" || item.kind === "CABINET";
}

/** A page of search results. */
export interface SearchView {
  readonly query: SearchQuery;
  readonly items: readonly FoundItem[];
  /** Hits over all pages (in the scan mode: among the items scanned), each kind counting its newest matches up to a bound. */
  readonly total: number;
  /** A kind reached the bound: more items match than `total` says (and than paging reaches). */
  readonly bounded: boolean;
}

/**
 * Searches the items of the caller's joined groups (or one of them), and, without a group, their
 * personal events and the messages of their chat rooms. Comments and chat messages are searched
 * only for callers whose level reads comments; asking for them without it is refused.
 * @throws ForbiddenError ACCESS_LEVEL_INSUFFICIENT (comments, chat), GROUP_NOT_JOINED; NotFoundError GROUP_NOT_FOUND
 */
export async function searchItems(ctx: ServiceContext, actor: Actor, input: SearchInput): Promise<SearchView> {
  const commentLevel = (kind: SearchKind) => COMMENT_LEVEL_SEARCH_KINDS.includes(kind);
  if (input.kind !== null && commentLevel(input.kind)) requireAccess(actor, "comments");
  const kinds =
    input.kind !== null
      ? [input.kind]
      : input.among.filter((kind) => !commentLevel(kind) || levelAllows(actor.app.accessLevel, "comments"));
  return ctx.store.read(async (tx) => {
    if (input.groupId !== null) await requireGroupMember(tx, actor, input.groupId);
    const filter: SearchFilter = { userId: actor.user.id, query: input.query, kinds, groupId: input.groupId };
    const { hits, total, bounded } = await tx.search.find(filter, input.page);
    return { query: input.query, items: await loadItems(tx, actor, input.query, hits), total, bounded };
  });
}

/** Loads each hit as its own feed would (an item deleted meanwhile is left out). */
async function loadItems(tx: Tx, actor: Actor, query: SearchQuery, hits: readonly SearchHit[]): Promise<FoundItem[]> {
  const groups = new Map<number, Group>();
  for (const groupId of new Set(hits.map((hit) => hit.groupId).filter((id) => id !== 0))) {
    const group = await tx.groups.findById(groupId);
    if (group) groups.set(groupId, group);
  }
  const fileTexts = await tx.search.fileTexts(hits.filter((hit) => hit.kind === "CABINET").map((hit) => hit.id));
  const unconfirmed = await tx.notifications.unconfirmedOf(
    actor.user.id,
    "TASK",
    hits.filter((hit) => hit.kind === "TASK").map((hit) => hit.id),
  );
  const comments = await commentDetailsOf(
    tx,
    actor.user.id,
    hits.filter((hit) => hit.kind === "COMMENT"),
  );
  const others = await loadOthers(tx, actor, query, hits, groups);
  const items: FoundItem[] = [];
  for (const hit of hits) {
    const other = others.get(`${hit.kind}:${hit.id}`);
    if (other) items.push(other);
    const group = groups.get(hit.groupId);
    if (!group) continue;
    const excerpt = (text: string) => excerptOf(text, query.terms);
    if (hit.kind === "BOARD") {
      const topic = await tx.topics.findById(hit.id);
      if (topic) items.push({ kind: "BOARD", group, topic, excerpt: excerpt(`${topic.title}\n${topic.body}`) });
    } else if (hit.kind === "TASK") {
      const task = await tx.tasks.findById(hit.id);
      const confirmed = !unconfirmed.has(hit.id);
      if (task) items.push({ kind: "TASK", group, task, confirmed, excerpt: excerpt(`${task.title}\n${task.body}`) });
    } else if (hit.kind === "CABINET") {
      const file = await tx.files.findById(hit.id);
      if (file) items.push({ kind: "CABINET", group, file, excerpt: excerpt(fileTexts.get(hit.id) ?? file.title) });
    } else if (hit.kind === "COMMENT") {
      const found = comments.get(hit.id);
      if (found) items.push({ kind: "COMMENT", group, ...found, excerpt: excerpt(found.detail.comment.body) });
    }
  }
  return items;
}

/** The found comments with their details (in one batch, not per comment) and their items' titles. */
async function commentDetailsOf(
  tx: Tx,
  viewerId: number,
  hits: readonly SearchHit[],
): Promise<Map<number, { detail: CommentDetail; parentTitle: string }>> {
  const comments = [];
  for (const hit of hits) {
    const comment = await tx.comments.findById(hit.id);
    if (comment) comments.push(comment);
  }
  const titles = new Map<string, string>();
  const found = new Map<number, { detail: CommentDetail; parentTitle: string }>();
  for (const detail of await detailComments(tx, viewerId, comments)) {
    const parent = detail.comment.parent;
    const key = `${parent.kind}:${parent.id}`;
    if (!titles.has(key)) titles.set(key, await titleOf(tx, parent));
    found.set(detail.comment.id, { detail, parentTitle: titles.get(key) ?? "" });
  }
  return found;
}

/** The title of the item a comment is on, as its page shows it. */
async function titleOf(tx: Tx, parent: ContentRef): Promise<string> {
  if (parent.kind === "BOARD") return (await tx.topics.findById(parent.id))?.title ?? "";
  if (parent.kind === "TASK") return (await tx.tasks.findById(parent.id))?.title ?? "";
  const file = await tx.files.findById(parent.id);
  return file ? file.title || file.current.fileName : "";
}
