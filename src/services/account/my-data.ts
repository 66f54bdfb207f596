// A person's own data, for the download on the account page (`GET /account/export`; the files are
// written by present/my-data.ts): their profile, what they wrote or own (topics, comments,
// personal events and ToDo tasks, chat messages) and every file version they uploaded. Only rows
// whose author or owner they are: their own posts wherever they are (also in groups and rooms they
// have left), never anyone else's items. Each kind is read page by page, each page in its own
// read, when the download reaches it: nothing holds the whole.
import type { Readable } from "node:stream";
import type { Actor } from "../../domain/access.js";
import type { ChatMessage } from "../../domain/chat.js";
import type { PersonalEvent } from "../../domain/event.js";
import type { Group } from "../../domain/group.js";
import { safeName, uniquePath } from "../../domain/my-data.js";
import type { PersonalTask } from "../../domain/personal-task.js";
import type { Topic } from "../../domain/topic.js";
import type { User } from "../../domain/user.js";
import type { WrittenAttachment } from "../../store/queries/my-data.js";
import type { Tx } from "../../store/store.js";
import { type CommentDetail, detailComments } from "../comment/comment-detail.js";
import type { ServiceContext } from "../context.js";
import { type EventEntry, wholeEntry } from "../event/event.js";

/** Rows read per query. */
const PAGE = 100;

/** The account as `profile.json` writes it. */
export interface MyProfile {
  readonly name: string;
  readonly reading: { readonly family: string; readonly given: string };
  readonly email: string;
  /** `null`: none chosen (the site's is used). */
  readonly timeZone: string | null;
  readonly language: string | null;
  /** When the account was made (UTC, ISO 8601). */
  readonly created: string | null;
}

/** A file version the person uploaded: its path in the download (made safe) and its bytes. */
export interface MyUpload {
  readonly path: string;
  readonly open: () => Promise<Readable | undefined>;
}

/** The person's data; each kind is read anew, page by page, each time it is iterated. */
export interface MyData {
  readonly owner: User;
  readonly profile: MyProfile;
  readonly topics: () => AsyncIterable<readonly { readonly group: Group; readonly topic: Topic }[]>;
  readonly comments: () => AsyncIterable<readonly CommentDetail[]>;
  readonly events: () => AsyncIterable<readonly EventEntry<PersonalEvent>[]>;
  readonly tasks: () => AsyncIterable<readonly PersonalTask[]>;
  readonly messages: () => AsyncIterable<readonly ChatMessage[]>;
  readonly uploads: () => AsyncIterable<MyUpload>;
}

/** The signed-in person's own data (their account's, whoever else asks nothing). */
export async function readMyData(ctx: ServiceContext, actor: Actor): Promise<MyData> {
  const userId = actor.user.id;
  const { user, preferences, createdAt } = await ctx.store.read(async (tx) => ({
    user: await tx.users.findById(userId),
    preferences: await tx.users.findPreferences(userId),
    createdAt: await tx.myData.createdAt(userId),
  }));
  const owner = user ?? { ...actor.user, familyKana: "", givenKana: "" };
  const pages =
    <T>(read: (tx: Tx, afterId: number) => Promise<{ ids: readonly number[]; items: readonly T[] }>) =>
    () =>
      paged(ctx, read);
  return {
    owner,
    profile: {
      name: owner.name,
      reading: { family: owner.familyKana, given: owner.givenKana },
      email: owner.email,
      timeZone: preferences?.timeZone ?? null,
      language: preferences?.lang ?? null,
      created: createdAt === undefined ? null : new Date(createdAt).toISOString(),
    },
    topics: pages(async (tx, afterId) => {
      const ids = await tx.myData.topicIds(userId, afterId, PAGE);
      const items = [];
      for (const id of ids) {
        const topic = await tx.topics.findById(id);
        const group = topic && (await tx.groups.findById(topic.groupId));
        if (topic && group) items.push({ group, topic });
      }
      return { ids, items };
    }),
    comments: pages(async (tx, afterId) => {
      const ids = await tx.myData.commentIds(userId, afterId, PAGE);
      const comments = [];
      for (const id of ids) {
        const comment = await tx.comments.findById(id);
        if (comment) comments.push(comment);
      }
      return { ids, items: await detailComments(tx, userId, comments) };
    }),
    events: pages(async (tx, afterId) => {
      const ids = await tx.myData.personalEventIds(userId, afterId, PAGE);
      return { ids, items: (await tx.personalEvents.findByIds(ids)).map((event) => wholeEntry(event)) };
    }),
    tasks: pages(async (tx, afterId) => {
      const ids = await tx.myData.personalTaskIds(userId, afterId, PAGE);
      return { ids, items: await tx.personalTasks.findMany(ids) };
    }),
    messages: pages(async (tx, afterId) => {
      const keys = await tx.myData.chatMessages(userId, afterId, PAGE);
      const items = [];
      for (const key of keys) {
        const message = await tx.chat.message(key.roomId, key.number);
        if (message) items.push(message);
      }
      return { ids: keys.map((key) => key.id), items };
    }),
    uploads: () => uploads(ctx, userId),
  };
}

/** Every page of a kind, each read in its own read transaction; the next starts after the last id. */
async function* paged<T>(
  ctx: ServiceContext,
  read: (tx: Tx, afterId: number) => Promise<{ ids: readonly number[]; items: readonly T[] }>,
): AsyncGenerator<readonly T[]> {
  for (let afterId = 0; ;) {
    const { ids, items } = await ctx.store.read((tx) => read(tx, afterId));
    if (items.length > 0) yield items;
    const last = ids.at(-1);
    if (last === undefined || ids.length < PAGE) return;
    afterId = last;
  }
}

/**
 * The uploaded versions, oldest first, at `files/<group>/<name>`, then the files of the person's
 * comments at `attachments/comments/<group>/<name>` and of their chat messages at
 * `attachments/chat/<room>/<name>` (a repeated path numbered).
 */
async function* uploads(ctx: ServiceContext, userId: number): AsyncGenerator<MyUpload> {
  const used = new Set<string>();
  const kinds: readonly { dir: string; read: (tx: Tx, afterId: number) => Promise<readonly StoredFile[]> }[] = [
    {
      dir: "files",
      read: async (tx, afterId) =>
        (await tx.myData.uploadedVersions(userId, afterId, PAGE)).map((v) => ({ ...v, placeName: v.groupName })),
    },
    { dir: "attachments/comments", read: (tx, afterId) => tx.myData.commentAttachments(userId, afterId, PAGE) },
    { dir: "attachments/chat", read: (tx, afterId) => tx.myData.chatAttachments(userId, afterId, PAGE) },
  ];
  for (const { dir, read } of kinds) {
    for (let afterId = 0; ;) {
      const rows = await ctx.store.read((tx) => read(tx, afterId));
      for (const row of rows)
        yield {
          path: uniquePath(used, `${dir}/${safeName(row.placeName || DIRECT_ROOM)}`, safeName(row.fileName)),
          open: () => ctx.blobs.open(row.blobKey),
        };
      const last = rows.at(-1);
      if (last === undefined || rows.length < PAGE) break;
      afterId = last.id;
    }
  }
}

/** A stored file of the person's, as its place in the download needs it. */
type StoredFile = Pick<WrittenAttachment, "id" | "placeName" | "fileName" | "blobKey">;

/** The folder of a direct conversation's files (its room has no title). */
const DIRECT_ROOM = "direct messages";
