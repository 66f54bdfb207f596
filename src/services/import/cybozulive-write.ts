// The writes of an import, inside its one transaction, through each resource's one insert. What an
// earlier run made is found by its import key and left as it is; history tells no one (no
// notifications, no mentions), and keeps its original authors and times.
import { createHash } from "node:crypto";
import type { ContentKind } from "../../domain/kinds.js";
import type { Tx } from "../../store/store.js";
import { addRoomMembers, insertRoom } from "../chat/chat.js";
import { insertMessages } from "../chat/chat-message.js";
import type { ImportProblem } from "../../domain/cybozulive/bundle.js";
import { NotFoundError } from "../../domain/errors.js";
import { insertComments, requireCommentParent } from "../comment/comment.js";
import { insertNamed } from "../event/event-named.js";
import { recordEvent } from "../event/event-write.js";
import { recordTask } from "../task/task-write.js";
import { insertTopic } from "../topic/topic.js";
import type { PlannedChatRoom, PlannedComment, PlannedEvent, PlannedTask, PlannedTopic } from "./cybozulive-plan.js";

/** How many of each thing. */
export interface ImportCounts {
  topics: number;
  comments: number;
  tasks: number;
  events: number;
  accounts: number;
  members: number;
  chatRooms: number;
  chatMessages: number;
}

/**
 * What the writes need: the group, the people's ids, the keys of earlier runs, the two tallies, and
 * the report's problems (an item an earlier run made and someone deleted since is one).
 */
export interface WriteScope {
  readonly tx: Tx;
  readonly groupId: number;
  readonly people: ReadonlyMap<string, number>;
  readonly keys: ReadonlyMap<string, number>;
  readonly created: ImportCounts;
  readonly found: ImportCounts;
  readonly problems: ImportProblem[];
  readonly at: number;
}

/**
 * An item or room an earlier run made was deleted here since: it stays deleted (a re-import does
 * not bring back what people removed), and neither it nor what hangs on it is written. The export
 * names no file position for a whole item, so the problem names none.
 */
function deletedSince(scope: WriteScope, what: string, title: string): void {
  scope.problems.push({
    file: "",
    line: 0,
    column: 0,
    kind: "DELETED_SINCE_IMPORT",
    message: `The ${what} "${title}" came with an earlier import and was deleted here since; it is left out, with what hangs on it.`,
  });
}

type ItemCount = "topics" | "tasks" | "events";

/** Writes a topic and its comments, unless an earlier run did. */
export async function writeTopic(scope: WriteScope, topic: PlannedTopic): Promise<void> {
  const item = { count: "topics", title: topic.title, kind: "BOARD" } as const;
  await writeItem(scope, item, `cybozulive:topic:${topic.key}`, topic.comments, async () => {
    const made = await insertTopic(scope.tx, {
      groupId: scope.groupId,
      title: topic.title,
      body: topic.body,
      authorId: personId(scope, topic.author),
      folderId: null,
      allowEdit: false,
      fastNotify: false,
      trashed: false,
      at: topic.created,
      updatedAt: topic.updated,
    });
    return made.id;
  });
}

/** Writes a task and its comments, unless an earlier run did. */
export async function writeTask(scope: WriteScope, task: PlannedTask): Promise<void> {
  const item = { count: "tasks", title: task.title, kind: "TASK" } as const;
  await writeItem(scope, item, `cybozulive:task:${task.key}`, task.comments, async () => {
    const made = await recordTask(scope.tx, {
      groupId: scope.groupId,
      title: task.title,
      body: task.body,
      authorId: personId(scope, task.author),
      assigneeId: task.assignee === null ? null : personId(scope, task.assignee),
      dueAt: task.due?.dueAt ?? null,
      allDay: task.due?.allDay ?? false,
      priority: task.priority,
      status: task.status,
      folderId: null,
      trashed: false,
      at: task.created,
      updatedAt: task.updated,
    });
    return made.id;
  });
}

/** Writes an event and its comments, unless an earlier run did; its menu is the group's of that name, made when missing. */
export async function writeEvent(scope: WriteScope, event: PlannedEvent, menus: Map<string, number>): Promise<void> {
  // Events have no ID: their key is derived from start, title and creator (hashed, to keep keys short).
  const key = `cybozulive:event:${createHash("sha256").update(event.key).digest("base64url")}`;
  const item = { count: "events", title: event.draft.title, kind: "GW_SCHEDULE" } as const;
  await writeItem(scope, item, key, event.comments, async () => {
    const menuId = event.menu === "" ? null : await menuOf(scope, event.menu, menus);
    const draft = { ...event.draft, menuId };
    return recordEvent(scope.tx, { groupId: scope.groupId, creatorId: personId(scope, event.author), draft }, scope.at);
  });
}

/**
 * Writes a chat room, made by its oldest message's author, with every author as a member, and the
 * messages an earlier run did not write (a later export of the room adds only its new ones).
 */
export async function writeChatRoom(scope: WriteScope, room: PlannedChatRoom): Promise<void> {
  const [first] = room.messages;
  if (first === undefined) return; // the plan leaves out rooms without messages
  const authors = [...new Set(room.messages.map((message) => personId(scope, message.author)))];
  let id = scope.keys.get(room.key);
  if (id === undefined) {
    const creatorId = personId(scope, first.author);
    id = await insertRoom(scope.tx, { title: room.title, creatorId, memberIds: authors, at: first.at });
    await scope.tx.importKeys.insert({ groupId: scope.groupId, key: room.key, targetId: id, at: scope.at });
    scope.created.chatRooms++;
  } else if (!(await scope.tx.chat.exists(id))) {
    deletedSince(scope, "chat room", room.title);
    return;
  } else {
    scope.found.chatRooms++;
    await addRoomMembers(scope.tx, id, authors, scope.at);
  }
  const missing = room.messages.filter((message) => !scope.keys.has(message.key));
  scope.found.chatMessages += room.messages.length - missing.length;
  const numbers = await insertMessages(
    scope.tx,
    id,
    missing.map((message) => ({ authorId: personId(scope, message.author), body: message.body, at: message.at })),
  );
  // A message's key keeps its number in the room (messages have no id of their own outside it).
  const made = missing.map((message, index) => ({ key: message.key, targetId: numbers[index] ?? 0 }));
  await scope.tx.importKeys.insertMany(scope.groupId, made, scope.at);
  scope.created.chatMessages += made.length;
}

async function writeItem(
  scope: WriteScope,
  item: { readonly count: ItemCount; readonly title: string; readonly kind: ContentKind },
  key: string,
  comments: readonly PlannedComment[],
  insert: () => Promise<number>,
): Promise<void> {
  const { count, kind } = item;
  let id = scope.keys.get(key);
  if (id === undefined) {
    id = await insert();
    await scope.tx.importKeys.insert({ groupId: scope.groupId, key, targetId: id, at: scope.at });
    scope.created[count]++;
  } else if (!(await stillThere(scope.tx, { kind, groupId: scope.groupId, id }))) {
    deletedSince(scope, ITEM_WORDS[count], item.title);
    return;
  } else scope.found[count]++;
  const parent = { kind, groupId: scope.groupId, id };
  const missing = comments.filter((comment) => !scope.keys.has(`${key}#${comment.number}`));
  scope.found.comments += comments.length - missing.length;
  const ids = await insertComments(
    scope.tx,
    parent,
    missing.map((comment) => ({ authorId: personId(scope, comment.author), body: comment.body, at: comment.at })),
  );
  const made = missing.map((comment, index) => ({ key: `${key}#${comment.number}`, targetId: ids[index] ?? 0 }));
  await scope.tx.importKeys.insertMany(scope.groupId, made, scope.at);
  scope.created.comments += made.length;
}

async function menuOf(scope: WriteScope, name: string, menus: Map<string, number>): Promise<number> {
  const known = menus.get(name);
  if (known !== undefined) return known;
  const made = await insertNamed(scope.tx, { list: "event_menus", groupId: scope.groupId, name }, scope.at);
  menus.set(name, made.id);
  return made.id;
}

function personId(scope: WriteScope, name: string): number {
  const id = scope.people.get(name);
  // Every name of the plan was resolved before the writes: a miss is a bug, not bad input.
  if (id === undefined) throw new Error(`the import met a person it did not resolve: ${name}`);
  return id;
}

const ITEM_WORDS: Readonly<Record<ItemCount, string>> = { topics: "topic", tasks: "task", events: "event" };

/** Whether an earlier run's item is still here (comments may hang on it). */
async function stillThere(tx: Tx, parent: { kind: ContentKind; groupId: number; id: number }): Promise<boolean> {
  try {
    await requireCommentParent(tx, parent);
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}
