import type { Kysely, Selectable } from "kysely";
import type { HookTarget, IncomingHook } from "../../domain/incoming-hook.js";
import type { Database, IncomingHooksTable } from "../schema.js";

/** Incoming webhooks, their secrets kept as SHA-256 (migration 0053). */
export interface IncomingHookRepo {
  /** The hook whose secret has this hash (the lookup is by the hash: nothing secret is compared here). */
  findBySecretHash(secretHash: string): Promise<IncomingHook | undefined>;
  find(id: number): Promise<IncomingHook | undefined>;
  /** A group's hooks (topics and comments), oldest first. */
  listOfGroup(groupId: number): Promise<IncomingHook[]>;
  /** A chat room's hooks, oldest first. */
  listOfRoom(roomId: number): Promise<IncomingHook[]>;
  insert(hook: {
    secretHash: string;
    name: string;
    creatorId: number;
    target: HookTarget;
    at: number;
  }): Promise<number>;
  /** False when there was no such hook. */
  remove(id: number): Promise<boolean>;
}

type Row = Selectable<IncomingHooksTable> & { readonly creator_name: string };

function toHook(row: Row): IncomingHook {
  const target: HookTarget =
    row.room_id !== null
      ? { kind: "chat", roomId: row.room_id }
      : row.topic_id !== null
        ? { kind: "comment", groupId: row.group_id ?? 0, topicId: row.topic_id }
        : { kind: "topic", groupId: row.group_id ?? 0 };
  return {
    id: row.id,
    name: row.name,
    creatorId: row.creator_id,
    creatorName: row.creator_name,
    target,
    createdAt: row.created_at,
  };
}

/** Incoming webhook queries. */
export function incomingHookRepo(db: Kysely<Database>): IncomingHookRepo {
  const hooks = () =>
    db
      .selectFrom("incoming_hooks")
      .innerJoin("users", "users.id", "incoming_hooks.creator_id")
      .selectAll("incoming_hooks")
      .select("users.name as creator_name");
  return {
    async findBySecretHash(secretHash) {
      const row = await hooks().where("incoming_hooks.secret_hash", "=", secretHash).executeTakeFirst();
      return row && toHook(row);
    },
    async find(id) {
      const row = await hooks().where("incoming_hooks.id", "=", id).executeTakeFirst();
      return row && toHook(row);
    },
    async listOfGroup(groupId) {
      const rows = await hooks()
        .where("incoming_hooks.group_id", "=", groupId)
        .orderBy("incoming_hooks.id", "asc")
        .execute();
      return rows.map(toHook);
    },
    async listOfRoom(roomId) {
      const rows = await hooks()
        .where("incoming_hooks.room_id", "=", roomId)
        .orderBy("incoming_hooks.id", "asc")
        .execute();
      return rows.map(toHook);
    },
    async insert({ secretHash, name, creatorId, target, at }) {
      const row = await db
        .insertInto("incoming_hooks")
        .values({
          secret_hash: secretHash,
          name,
          creator_id: creatorId,
          group_id: target.kind === "chat" ? null : target.groupId,
          topic_id: target.kind === "comment" ? target.topicId : null,
          room_id: target.kind === "chat" ? target.roomId : null,
          created_at: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async remove(id) {
      const result = await db.deleteFrom("incoming_hooks").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
