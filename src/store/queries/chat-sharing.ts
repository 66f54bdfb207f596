// The rule that keeps a chat room among people who know each other (docs/api.md "Chat"): a member
// of a THEME room shares a joined group with the room's creator, the two people of a DIRECT room
// share one with each other. Written as SQL fragments so that every read of a room checks it in
// the same query (no extra round trip), over the unique (group_id, user_id) and (user_id, status)
// indexes of memberships.
import { type Expression, type RawBuilder, sql } from "kysely";

/** SQL: users `a` and `b` share a joined group (true when they are the same joined user). */
export function sharesAGroup(a: Expression<number> | number, b: Expression<number>): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from memberships x inner join memberships y on y.group_id = x.group_id where x.user_id = ${a} and x.status = 'JOIN' and y.user_id = ${b} and y.status = 'JOIN')`;
}

/**
 * SQL: `userId` may use the room aliased `r` (being one of its members is checked apart): a THEME
 * room's creator always, another member while sharing a group with the creator; a DIRECT room's
 * person while sharing a group with the other person.
 */
export function mayUseRoom(userId: number): RawBuilder<boolean> {
  const creator = sql.ref<number>("r.creator_id");
  const other = sql.ref<number>("o.user_id");
  return sql<boolean>`(case when r.type = 'DIRECT' then exists (select 1 from chat_members o where o.room_id = r.id and o.user_id <> ${userId} and ${sharesAGroup(userId, other)}) else (r.creator_id = ${userId} or ${sharesAGroup(userId, creator)}) end)`;
}
