// What notification mail tells: the changed items' titles and texts, read when the message is
// made (so a message carries the text as it is then, and nothing of an item gone or in the trash).
import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import type { Database } from "../schema.js";
import type { MailEvent, MailItemKind } from "../../domain/mail-change.js";

/** A change with what a message shows of it. */
export interface ToldChange {
  readonly id: number;
  readonly groupId: number;
  readonly groupName: string;
  readonly itemKind: MailItemKind;
  readonly itemId: number;
  readonly title: string;
  /** The item's text now (topic body, task summary, file memo, event memo). */
  readonly body: string;
  readonly event: MailEvent;
  readonly actorId: number | null;
  readonly actorName: string | null;
  readonly number: number | null;
  /** The comment's text when the change wrote one that still exists; null otherwise. */
  readonly comment: string | null;
  readonly at: number;
}

/** The content queries. */
export interface MailContentRepo {
  /** A batch's changes, oldest first; empty when its item is gone or in the trash. */
  batchChanges(batchId: number): Promise<ToldChange[]>;
  /** One logged change as told (a mention, an assignment); undefined when its item is gone or in the trash. */
  change(id: number): Promise<ToldChange | undefined>;
  /**
   * The changes a person's digest tells, oldest first, the newest `limit`: in groups they joined,
   * did not mute and did not turn off, of items they may read, by others, in (`from`, `to`].
   */
  digestChanges(userId: number, from: number, to: number, limit: number): Promise<ToldChange[]>;
}

type Logged = Database & { n: Database["mail_changes"] };

/** The changes `n` with their group, item, actor and comment; only items that exist and are not in the trash. */
function told(query: SelectQueryBuilder<Logged, "n", object>) {
  const kindIs = sql.ref<string>("n.item_kind");
  return query
    .innerJoin("groups as g", "g.id", "n.group_id")
    .leftJoin("topics as t", (join) => join.on(kindIs, "=", "BOARD").onRef("t.id", "=", "n.item_id"))
    .leftJoin("tasks as k", (join) => join.on(kindIs, "=", "TASK").onRef("k.id", "=", "n.item_id"))
    .leftJoin("files as f", (join) => join.on(kindIs, "=", "CABINET").onRef("f.id", "=", "n.item_id"))
    .leftJoin("events as e", (join) => join.on(kindIs, "=", "GW_SCHEDULE").onRef("e.id", "=", "n.item_id"))
    .leftJoin("file_versions as fv", (join) =>
      join.onRef("fv.file_id", "=", "f.id").onRef("fv.version_number", "=", "f.current_version"),
    )
    .leftJoin("comments as c", (join) =>
      join
        .onRef("c.parent_kind", "=", sql.ref("n.item_kind"))
        .onRef("c.parent_id", "=", "n.item_id")
        .onRef("c.number", "=", "n.number")
        .on("n.event", "in", ["comment", "mention"]),
    )
    .leftJoin("users as actor", "actor.id", "n.actor_id")
    .select([
      "n.id",
      "n.group_id",
      "n.item_kind",
      "n.item_id",
      "n.event",
      "n.actor_id",
      "n.number",
      "n.at",
      "g.name as group_name",
      "actor.name as actor_name",
      "c.body as comment",
      sql<string | null>`coalesce(t.title, k.title, nullif(f.title, ''), fv.file_name, e.title)`.as("title"),
      sql<string | null>`coalesce(t.body, k.summary, f.memo, e.memo)`.as("body"),
    ])
    .where((eb) =>
      eb.or([
        eb("n.item_kind", "=", "GROUP"),
        eb.and([eb("n.item_kind", "=", "BOARD"), eb("t.trashed", "=", 0)]),
        eb.and([eb("n.item_kind", "=", "TASK"), eb("k.trashed", "=", 0)]),
        eb.and([eb("n.item_kind", "=", "CABINET"), eb("f.trashed", "=", 0)]),
        eb.and([eb("n.item_kind", "=", "GW_SCHEDULE"), eb("e.id", "is not", null)]),
      ]),
    );
}

interface ToldRow {
  id: number;
  group_id: number | null;
  item_kind: MailItemKind;
  item_id: number;
  event: MailEvent;
  actor_id: number | null;
  number: number | null;
  at: number;
  group_name: string;
  actor_name: string | null;
  comment: string | null;
  title: string | null;
  body: string | null;
}

function toTold(row: ToldRow): ToldChange {
  const member = row.item_kind === "GROUP";
  return {
    id: row.id,
    groupId: row.group_id ?? 0,
    groupName: row.group_name,
    itemKind: row.item_kind,
    itemId: row.item_id,
    title: member ? row.group_name : (row.title ?? ""),
    body: member ? "" : (row.body ?? ""),
    event: row.event,
    actorId: row.actor_id,
    actorName: row.actor_name,
    number: row.number,
    comment: row.comment,
    at: row.at,
  };
}

/** The content queries over a connection or transaction. */
export function mailContentRepo(db: Kysely<Database>): MailContentRepo {
  const changes = () => db.selectFrom("mail_changes as n");
  return {
    async batchChanges(batchId) {
      const rows = await told(changes()).where("n.batch_id", "=", batchId).orderBy("n.at").orderBy("n.id").execute();
      return rows.map(toTold);
    },
    async change(id) {
      const row = await told(changes()).where("n.id", "=", id).executeTakeFirst();
      return row && toTold(row);
    },
    async digestChanges(userId, from, to, limit) {
      const rows = await told(changes())
        .innerJoin("memberships as m", (join) =>
          join.onRef("m.group_id", "=", "n.group_id").on("m.user_id", "=", userId).on("m.status", "=", "JOIN"),
        )
        .where("m.notify", "=", 1)
        .where("n.user_id", "is", null)
        .where("n.at", ">", from)
        .where("n.at", "<=", to)
        .where((eb) => eb.or([eb("n.actor_id", "is", null), eb("n.actor_id", "<>", userId)]))
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom("mail_group_settings as o")
                .select(sql<number>`1`.as("one"))
                .where("o.user_id", "=", userId)
                .whereRef("o.group_id", "=", "n.group_id"),
            ),
          ),
        )
        .where((eb) =>
          eb.or([
            eb("n.item_kind", "<>", "GW_SCHEDULE"),
            eb.not(
              eb.exists(
                eb
                  .selectFrom("event_participants as ep")
                  .select(sql<number>`1`.as("one"))
                  .whereRef("ep.event_id", "=", "n.item_id"),
              ),
            ),
            eb.exists(
              eb
                .selectFrom("event_participants as ep")
                .select(sql<number>`1`.as("one"))
                .whereRef("ep.event_id", "=", "n.item_id")
                .where("ep.user_id", "=", userId),
            ),
          ]),
        )
        .orderBy("n.at", "desc")
        .orderBy("n.id", "desc")
        .limit(limit)
        .execute();
      return rows.map(toTold).reverse();
    },
  };
}
