import type { Kysely } from "kysely";
import type { Comment } from "../../domain/comment.js";
import type { ContentRef } from "../../domain/item-id.js";
import type { Database } from "../schema.js";
import type { PageWindow } from "../page-window.js";
import type { RowOf } from "./rows.js";

/** Which of a parent's comments a read keeps. */
export interface CommentFilter {
  /** Only comments by others than `userId` written after `after` (every one when `after` is null). */
  readonly unconfirmedBy?: { readonly userId: number; readonly after: number | null };
}

/** Comments on any content item. */
export interface CommentRepo {
  /** Hands out the parent's next comment number atomically (safe under concurrent writers). */
  nextNumber(parent: ContentRef): Promise<number>;
  /** Hands out `count` (at least 1) consecutive numbers at once, as nextNumber does one; returns the first. */
  nextNumbers(parent: ContentRef, count: number): Promise<number>;
  insert(comment: NewComment): Promise<Comment>;
  /** Inserts many comments in few statements; returns their ids in order (an import's comments). */
  insertMany(comments: readonly NewComment[]): Promise<number[]>;
  find(parent: ContentRef, number: number): Promise<Comment | undefined>;
  findById(id: number): Promise<Comment | undefined>;
  /** A page of one parent's comments, newest first (by number). */
  page(parent: ContentRef, filter: CommentFilter, page: PageWindow): Promise<Comment[]>;
  /** How many of the parent's comments pass the filter. */
  count(parent: ContentRef, filter: CommentFilter): Promise<number>;
  /** Every comment of each parent, newest first (the embedded sub-feed has no paging). */
  listAll(parents: readonly ContentRef[]): Promise<Comment[]>;
  /** A new text from the comment's author, edited at `at`. */
  updateBody(id: number, body: string, at: number): Promise<void>;
  remove(id: number): Promise<void>;
  /** Removes a parent's comments and its counter; returns the removed comment ids. */
  removeAllOf(parent: ContentRef): Promise<number[]>;
}

/** A comment to insert: its parent, its number there, and what it says. */
export interface NewComment {
  readonly parent: ContentRef;
  readonly number: number;
  readonly authorId: number;
  readonly body: string;
  readonly replyTo: number | null;
  readonly at: number;
}

/** The row of a new comment. */
function commentRow(comment: NewComment) {
  return {
    group_id: comment.parent.groupId,
    parent_kind: comment.parent.kind,
    parent_id: comment.parent.id,
    number: comment.number,
    author_id: comment.authorId,
    body: comment.body,
    reply_to: comment.replyTo,
    created_at: comment.at,
  };
}

function selectComments(db: Kysely<Database>) {
  return db
    .selectFrom("comments")
    .innerJoin("users", "users.id", "comments.author_id")
    .selectAll("comments")
    .select("users.name as author_name");
}

function toComment(row: RowOf<typeof selectComments>): Comment {
  return {
    id: row.id,
    parent: { kind: row.parent_kind, groupId: row.group_id, id: row.parent_id },
    number: row.number,
    authorId: row.author_id,
    authorName: row.author_name,
    body: row.body,
    replyTo: row.reply_to,
    createdAt: row.created_at,
    editedAt: row.edited_at,
  };
}

/** One parent's comments that pass the filter. */
function filtered(db: Kysely<Database>, parent: ContentRef, filter: CommentFilter) {
  let query = selectComments(db)
    .where("comments.parent_kind", "=", parent.kind)
    .where("comments.parent_id", "=", parent.id);
  const unconfirmed = filter.unconfirmedBy;
  if (unconfirmed) {
    query = query.where("comments.author_id", "<>", unconfirmed.userId);
    if (unconfirmed.after !== null) query = query.where("comments.created_at", ">", unconfirmed.after);
  }
  return query;
}

/** Comments queries. */
export function commentRepo(db: Kysely<Database>): CommentRepo {
  const nextNumbers = async (parent: ContentRef, count: number): Promise<number> => {
    // One atomic upsert: concurrent writers on either engine each get their own numbers, and
    // numbers of deleted comments are never handed out again.
    const row = await db
      .insertInto("comment_counters")
      .values({ parent_kind: parent.kind, parent_id: parent.id, last_number: count })
      .onConflict((oc) =>
        oc.columns(["parent_kind", "parent_id"]).doUpdateSet((eb) => ({
          last_number: eb("comment_counters.last_number", "+", count),
        })),
      )
      .returning("last_number")
      .executeTakeFirstOrThrow();
    return row.last_number - count + 1;
  };
  return {
    nextNumber: (parent) => nextNumbers(parent, 1),
    nextNumbers,
    async insertMany(comments) {
      const made: number[] = [];
      // 500 rows of 8 values: far below either engine's limit of bound values per statement.
      for (let start = 0; start < comments.length; start += 500) {
        const rows = await db
          .insertInto("comments")
          .values(comments.slice(start, start + 500).map(commentRow))
          .returning(["id", "parent_kind", "parent_id", "number"])
          .execute();
        // RETURNING's order is not promised: put the ids back in the order of the rows given.
        const key = (kind: string, id: number, number: number) => `${kind}/${id}/${number}`;
        const ids = new Map(rows.map((row) => [key(row.parent_kind, row.parent_id, row.number), row.id]));
        for (const c of comments.slice(start, start + 500))
          made.push(ids.get(key(c.parent.kind, c.parent.id, c.number)) ?? 0);
      }
      return made;
    },
    async insert(comment) {
      const { id } = await db
        .insertInto("comments")
        .values(commentRow(comment))
        .returning("id")
        .executeTakeFirstOrThrow();
      return toComment(await selectComments(db).where("comments.id", "=", id).executeTakeFirstOrThrow());
    },
    async find(parent, number) {
      const row = await selectComments(db)
        .where("comments.parent_kind", "=", parent.kind)
        .where("comments.parent_id", "=", parent.id)
        .where("comments.number", "=", number)
        .executeTakeFirst();
      return row && toComment(row);
    },
    async findById(id) {
      const row = await selectComments(db).where("comments.id", "=", id).executeTakeFirst();
      return row && toComment(row);
    },
    async page(parent, filter, page) {
      const rows = await filtered(db, parent, filter)
        .orderBy("comments.number", "desc")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map(toComment);
    },
    async count(parent, filter) {
      const row = await filtered(db, parent, filter)
        .clearSelect()
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async listAll(parents) {
      if (parents.length === 0) return [];
      const kind = parents[0]?.kind ?? "BOARD";
      const rows = await selectComments(db)
        .where("comments.parent_kind", "=", kind)
        .where(
          "comments.parent_id",
          "in",
          parents.map((p: ContentRef) => p.id),
        )
        .orderBy("comments.number", "desc")
        .execute();
      return rows.map(toComment);
    },
    async updateBody(id, body, at) {
      await db.updateTable("comments").set({ body, edited_at: at }).where("id", "=", id).execute();
    },
    async remove(id) {
      await db.deleteFrom("comments").where("id", "=", id).execute();
    },
    async removeAllOf(parent) {
      const rows = await db
        .deleteFrom("comments")
        .where("parent_kind", "=", parent.kind)
        .where("parent_id", "=", parent.id)
        .returning("id")
        .execute();
      await db
        .deleteFrom("comment_counters")
        .where("parent_kind", "=", parent.kind)
        .where("parent_id", "=", parent.id)
        .execute();
      return rows.map((row) => row.id);
    },
  };
}
