import { type Kysely, type Selectable, sql } from "kysely";
import { isContentKind } from "../../domain/kinds.js";
import type { Database } from "../schema.js";
import type { LiveEventsTable } from "../schema-activity.js";
import type { Engine } from "./engine.js";
import type { NotificationItem, LikedChatMessage, LikedItem } from "../../domain/notification.js";

/** The PostgreSQL channel a committed live event is announced on (LISTEN/NOTIFY). */
export const LIVE_CHANNEL = "kairan_live";

/** A change a live stream reports, as written to the log. */
export type LiveEventInput =
  | { readonly kind: "notification"; readonly item: NotificationItem; readonly at: number }
  | { readonly kind: "likeNotification"; readonly ownerId: number; readonly item: LikedItem; readonly at: number }
  | {
      readonly kind: "chatLikeNotification";
      readonly ownerId: number;
      readonly message: LikedChatMessage;
      readonly at: number;
    }
  | { readonly kind: "chat"; readonly roomId: number; readonly messageNumber: number; readonly at: number }
  /** A user confirmed notifications or read chat messages: only that user's streams hear of it. */
  | { readonly kind: "read"; readonly userId: number; readonly what: ReadWhat; readonly at: number };

/** What a `read` event says was read: notifications (mentions among them) or chat messages. */
export type ReadWhat = "notification" | "chat";

/** How a chat message's like is logged: a likeNotification row whose item kind names no group's item. */
const CHAT_LIKE_ITEM_KIND = "MP_CHAT";

/** A logged event, read back by the processes that hold streams. */
export type LoggedLiveEvent = LiveEventInput & { readonly id: number };

/** The live event log (migration 0018): one row per change, whatever its audience. */
export interface LiveEventRepo {
  /** Logs one change in the current transaction; on PostgreSQL also announces it, at commit. */
  append(event: LiveEventInput): Promise<void>;
  /** Logged events with an id above `afterId`, oldest first, at most `limit`, none older than `since`. */
  after(afterId: number, since: number, limit: number): Promise<LoggedLiveEvent[]>;
  /** The newest event's id (0 when the log is empty). */
  latestId(): Promise<number>;
  /** Deletes events logged before `before`. */
  prune(before: number): Promise<void>;
  /**
   * Of these token and web session ids, those that still stand for their user: the token not
   * revoked, the session not ended or expired, the account not disabled (the streams' re-check).
   */
  liveCredentials(tokenIds: readonly number[], sessionIds: readonly number[], now: number): Promise<LiveCredentials>;
}

/** The credentials of open streams that still hold. */
export interface LiveCredentials {
  readonly tokenIds: ReadonlySet<number>;
  readonly sessionIds: ReadonlySet<number>;
}

/** Ids per query: far below either engine's limit of bound parameters. */
const ID_CHUNK = 1000;

function chunks(ids: readonly number[]): number[][] {
  const out: number[][] = [];
  for (let start = 0; start < ids.length; start += ID_CHUNK) out.push(ids.slice(start, start + ID_CHUNK));
  return out;
}

type Row = Selectable<LiveEventsTable>;

function rowOf(event: LiveEventInput) {
  switch (event.kind) {
    case "notification":
      return { kind: event.kind, group_id: event.item.groupId, item_kind: event.item.kind, item_id: event.item.id };
    case "likeNotification":
      return {
        kind: event.kind,
        user_id: event.ownerId,
        group_id: event.item.parent.groupId,
        item_kind: event.item.parent.kind,
        item_id: event.item.parent.id,
        number: event.item.commentNumber,
      };
    case "chatLikeNotification":
      return {
        kind: "likeNotification" as const,
        user_id: event.ownerId,
        item_kind: CHAT_LIKE_ITEM_KIND,
        item_id: event.message.roomId,
        number: event.message.messageNumber,
      };
    case "chat":
      return { kind: event.kind, item_id: event.roomId, number: event.messageNumber };
    case "read":
      return { kind: event.kind, user_id: event.userId, item_kind: event.what };
  }
}

function eventOf(row: Row): LoggedLiveEvent | undefined {
  const { id, at } = row;
  if (row.kind === "chat") return { id, at, kind: "chat", roomId: row.item_id ?? 0, messageNumber: row.number ?? 0 };
  if (row.kind === "read") {
    const what = row.item_kind === "chat" ? "chat" : "notification";
    return { id, at, kind: "read", userId: row.user_id ?? 0, what };
  }
  if (row.kind === "likeNotification" && row.item_kind === CHAT_LIKE_ITEM_KIND) {
    const message = { roomId: row.item_id ?? 0, messageNumber: row.number ?? 0 };
    return { id, at, kind: "chatLikeNotification", ownerId: row.user_id ?? 0, message };
  }
  const groupId = row.group_id ?? 0;
  const itemId = row.item_id ?? 0;
  const kind = row.item_kind;
  if (kind === null || !isContentKind(kind)) {
    return kind === "GROUP" && row.kind === "notification"
      ? { id, at, kind: "notification", item: { kind: "GROUP", groupId, id: itemId } }
      : undefined;
  }
  const parent = { kind, groupId, id: itemId } as const;
  if (row.kind === "notification") return { id, at, kind: "notification", item: parent };
  return {
    id,
    at,
    kind: "likeNotification",
    ownerId: row.user_id ?? 0,
    item: { parent, commentNumber: row.number ?? 0 },
  };
}

/** Live event log queries. */
export function liveEventRepo(db: Kysely<Database>, engine: Engine): LiveEventRepo {
  return {
    async append(event) {
      const values = { ...rowOf(event), at: event.at };
      if (engine === "sqlite") {
        await db.insertInto("live_events").values(values).execute();
        return;
      }
      // NOTIFY is transactional: the other processes hear of it when the row is visible to them.
      // Repeated notifications of one transaction are folded into one by PostgreSQL. One statement
      // for both: a chat message appends while it holds its room's row (chat-messages.ts).
      await db
        .with("logged", (q) => q.insertInto("live_events").values(values).returning("id"))
        .selectFrom("logged")
        .select(sql<string>`pg_notify(${LIVE_CHANNEL}, '')`.as("notified"))
        .execute();
    },
    async after(afterId, since, limit) {
      const rows = await db
        .selectFrom("live_events")
        .selectAll()
        .where("id", ">", afterId)
        .where("at", ">=", since)
        .orderBy("id")
        .limit(limit)
        .execute();
      return rows.map(eventOf).filter((event): event is LoggedLiveEvent => event !== undefined);
    },
    async latestId() {
      const row = await db
        .selectFrom("live_events")
        .select((eb) => eb.fn.max("id").as("id"))
        .executeTakeFirst();
      return Number(row?.id ?? 0);
    },
    async prune(before) {
      await db.deleteFrom("live_events").where("at", "<", before).execute();
    },
    async liveCredentials(tokenIds, sessionIds, now) {
      const tokens = new Set<number>();
      const sessions = new Set<number>();
      for (const ids of chunks([...new Set(tokenIds)])) {
        const rows = await db
          .selectFrom("tokens")
          .innerJoin("users", "users.id", "tokens.user_id")
          .select("tokens.id")
          .where("tokens.id", "in", ids)
          .where("tokens.revoked_at", "is", null)
          .where("users.disabled_at", "is", null)
          .execute();
        for (const row of rows) tokens.add(Number(row.id));
      }
      for (const ids of chunks([...new Set(sessionIds)])) {
        const rows = await db
          .selectFrom("sessions")
          .innerJoin("users", "users.id", "sessions.user_id")
          .select("sessions.id")
          .where("sessions.id", "in", ids)
          .where("sessions.expires_at", ">", now)
          .where("users.disabled_at", "is", null)
          .execute();
        for (const row of rows) sessions.add(Number(row.id));
      }
      return { tokenIds: tokens, sessionIds: sessions };
    },
  };
}
