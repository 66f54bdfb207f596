import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Database } from "../schema.js";
import { CORPUS, CORPUS_CHARS } from "./dataset-corpus.js";
import { type DatasetEventRepo, datasetEventQueries } from "./dataset-events.js";
import type { Engine } from "./engine.js";

/** The shape of a synthetic dataset (`kairan generate`): every number, and the seed. */
export interface DatasetPlan {
  readonly seed: number;
  readonly users: number;
  readonly groups: number;
  /** Members of group 1, users 1..N. */
  readonly bigGroupMembers: number;
  /** Members of every other group. */
  readonly membersPerGroup: number;
  readonly topics: number;
  /** Topics 1..N are in group 1; the rest are spread over the other groups. */
  readonly bigGroupTopics: number;
  readonly comments: number;
  /** Tasks, spread round-robin over every group (task i in group (i - 1) % groups + 1). */
  readonly tasks: number;
  /**
   * Every member of a group is notified of the group's newest N topics (with the comments on them)
   * and newest N tasks that they did not write; about half of those notifications are confirmed.
   */
  readonly notificationTopics: number;
  /** Epoch ms: topic i is published and updated at startAt + i seconds. */
  readonly startAt: number;
  /** Group events; every fifth one repeats (services/dataset/dataset-events.ts). */
  readonly events: number;
  /** Events 1..N are in group 1; the rest are spread over the other groups. */
  readonly bigGroupEvents: number;
  /** Epoch ms of a UTC midnight: events start within about half a year either side of it. */
  readonly eventsAround: number;
}

/** Set-based inserts of a synthetic dataset into an empty database (benchmarks). */
export interface DatasetRepo extends DatasetEventRepo {
  insertUsers(plan: DatasetPlan, passwordHash: string, at: number): Promise<void>;
  insertGroups(plan: DatasetPlan, at: number): Promise<void>;
  insertMemberships(plan: DatasetPlan, at: number): Promise<void>;
  /** Topics number from..to (inclusive). */
  insertTopics(plan: DatasetPlan, from: number, to: number): Promise<void>;
  /** Comments number from..to (inclusive); the topics must exist. */
  insertComments(plan: DatasetPlan, from: number, to: number): Promise<void>;
  /** Tasks number from..to (inclusive). */
  insertTasks(plan: DatasetPlan, from: number, to: number): Promise<void>;
  /** Counters as if every comment had been added one by one. */
  insertCommentCounters(): Promise<void>;
  /** Notifications (and the comment confirmations of the confirmed ones); topics, comments, counters and tasks must exist. */
  insertNotifications(plan: DatasetPlan): Promise<void>;
  insertTokens(
    rows: readonly { userId: number; appId: number; tokenHash: string; secret: string; createdAt: number }[],
  ): Promise<void>;
}

// Set-based loading of a synthetic dataset (`kairan generate`). Every row comes from one
// INSERT ... SELECT over a recursive CTE of numbers, so a million rows cost one statement per
// chunk instead of a million round trips. The SQL is portable: WITH RECURSIVE, CAST, ||,
// integer / and %, CASE and substr mean the same on SQLite and PostgreSQL. Constants are
// validated integers written as literals (PostgreSQL cannot type a bare parameter in a CTE).

const lit = (value: number | string) => sql.lit(value);

/** `WITH RECURSIVE n(i)` over from..to, both inclusive. */
function numbers(from: number, to: number): RawBuilder<unknown> {
  return sql`WITH RECURSIVE n(i) AS (SELECT CAST(${lit(from)} AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i < ${lit(to)})`;
}

/**
 * A deterministic pseudo-random number in 0..2^32-6 from the row number and the seed: Knuth's
 * multiplier, taken modulo the largest prime below 2^32. Modulo 2^32, the low bits would follow
 * the row number (x % 4 would be (i + seed) % 4, the same for every task of a group when the
 * group count is a multiple of 4). The product stays below 2^63 for every row count allowed.
 */
function mix(plan: DatasetPlan, salt: number): RawBuilder<number> {
  return sql<number>`(((i + ${lit(plan.seed + salt)}) * 2654435761) % 4294967291)`;
}

const LOREM =
  "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. " +
  "Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure.";

/** The user who is member `k` (0-based) of small group `g`: a window of consecutive users starting at a seeded offset. */
function smallGroupMember(plan: DatasetPlan, group: RawBuilder<number>, k: RawBuilder<number>): RawBuilder<number> {
  return sql<number>`(((${group} * 7919 + ${lit(plan.seed)}) + ${k}) % ${lit(plan.users)}) + 1`;
}

const DAY_MS = 86_400_000;

/** Midnight UTC of the day of `at`: all-day due dates are kept at midnight. */
function midnight(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}

/** Tasks spread over the topics' time span (topic i is at start + i s), half a second off any topic. */
function taskStepMs(plan: DatasetPlan): number {
  return 1000 * Math.max(1, Math.floor(plan.topics / Math.max(plan.tasks, 1)));
}

/** Bulk dataset queries; ids are 1..N because `kairan generate` only loads into an empty database. */
export function datasetRepo(db: Kysely<Database>, engine: Engine): DatasetRepo {
  return {
    ...datasetEventQueries(db, engine),
    async insertUsers(plan, passwordHash, at) {
      await sql`${numbers(1, plan.users)}
        INSERT INTO users (name, email, password_hash, family_kana, given_kana, created_at)
        SELECT 'User ' || i, 'user' || i || '@bench.example', ${passwordHash}, '', '', ${lit(at)} FROM n ORDER BY i`.execute(
        db,
      );
    },
    async insertGroups(plan, at) {
      await sql`${numbers(1, plan.groups)}
        INSERT INTO groups (name, summary, created_at, updated_at)
        SELECT 'Group ' || i, '', ${lit(at)}, ${lit(at)} FROM n ORDER BY i`.execute(db);
    },
    async insertMemberships(plan, at) {
      await sql`${numbers(1, plan.bigGroupMembers)}
        INSERT INTO memberships (group_id, user_id, status, manager, notify, created_at, updated_at)
        SELECT 1, i, 'JOIN', CASE WHEN i = 1 THEN 1 ELSE 0 END, 1, ${lit(at)}, ${lit(at)} FROM n ORDER BY i`.execute(
        db,
      );
      if (plan.groups < 2) return;
      const m = plan.membersPerGroup;
      const group = sql<number>`(2 + (i - 1) / ${lit(m)})`;
      await sql`${numbers(1, (plan.groups - 1) * m)}
        INSERT INTO memberships (group_id, user_id, status, manager, notify, created_at, updated_at)
        SELECT ${group}, ${smallGroupMember(plan, group, sql`((i - 1) % ${lit(m)})`)}, 'JOIN',
          CASE WHEN (i - 1) % ${lit(m)} = 0 THEN 1 ELSE 0 END, 1, ${lit(at)}, ${lit(at)} FROM n ORDER BY i`.execute(db);
    },
    async insertTopics(plan, from, to) {
      // The first bigGroupTopics go to group 1, the rest round-robin over the other groups.
      const small = plan.groups - 1;
      const group = sql<number>`CASE WHEN i <= ${lit(plan.bigGroupTopics)} THEN 1 ELSE 2 + (i - ${lit(plan.bigGroupTopics)} - 1) % ${lit(Math.max(small, 1))} END`;
      const author = sql<number>`CASE WHEN i <= ${lit(plan.bigGroupTopics)} THEN ${mix(plan, 1)} % ${lit(plan.bigGroupMembers)} + 1
        ELSE ${smallGroupMember(plan, group, sql`(${mix(plan, 1)} % ${lit(plan.membersPerGroup)})`)} END`;
      await sql`${numbers(from, to)}
        INSERT INTO topics (group_id, title, body, author_id, folder_id, allow_edit, fast_notify, trashed, published_at, updated_at)
        SELECT ${group}, 'Topic ' || i, substr(${LOREM}, 1, 40 + CAST(${mix(plan, 2)} % 200 AS INTEGER)), ${author}, NULL,
          CAST(${mix(plan, 3)} % 2 AS INTEGER), 0, 0, ${lit(plan.startAt)} + i * 1000, ${lit(plan.startAt)} + i * 1000
        FROM n ORDER BY i`.execute(db);
    },
    async insertComments(plan, from, to) {
      // Text: a window of the fixed mixed-language text (dataset-corpus.ts), so searches are selective.
      // Comment i belongs to topic ((i-1) % topics) + 1 with number ((i-1) / topics) + 1: every
      // topic gets an even share, numbered 1, 2, ... without gaps.
      await sql`${numbers(from, to)}
        INSERT INTO comments (group_id, parent_kind, parent_id, number, author_id, body, reply_to, created_at)
        SELECT t.group_id, 'BOARD', t.id, (i - 1) / ${lit(plan.topics)} + 1, t.author_id,
          substr(${CORPUS}, 1 + CAST(${mix(plan, 5)} % ${lit(CORPUS_CHARS - 160)} AS INTEGER), 20 + CAST(${mix(plan, 4)} % 120 AS INTEGER)),
          NULL, t.updated_at + (i - 1) / ${lit(plan.topics)} + 1
        FROM n INNER JOIN topics t ON t.id = (i - 1) % ${lit(plan.topics)} + 1 ORDER BY i`.execute(db);
    },
    async insertTasks(plan, from, to) {
      // Round-robin over every group: task i is number (i-1)/groups + 1 of group (i-1) % groups + 1,
      // so each group's sequence runs 1, 2, ... without gaps. Authors and assignees are members.
      const group = sql<number>`((i - 1) % ${lit(plan.groups)} + 1)`;
      const member = (
        salt: number,
      ) => sql<number>`CASE WHEN ${group} = 1 THEN ${mix(plan, salt)} % ${lit(plan.bigGroupMembers)} + 1
        ELSE ${smallGroupMember(plan, group, sql`(${mix(plan, salt)} % ${lit(plan.membersPerGroup)})`)} END`;
      const allDay = sql<number>`CAST(${mix(plan, 8)} % 2 AS INTEGER)`;
      // Due dates within 60 days of the start, at midnight UTC for all-day tasks; a third have none.
      const due = sql`CASE WHEN ${mix(plan, 7)} % 3 = 0 THEN NULL
        ELSE ${lit(midnight(plan.startAt))} + (${mix(plan, 9)} % 60) * 86400000 + CASE WHEN ${allDay} = 1 THEN 0 ELSE (${mix(plan, 10)} % 24) * 3600000 END END`;
      const at = sql`${lit(plan.startAt)} + i * CAST(${lit(taskStepMs(plan))} AS BIGINT) + 500`;
      await sql`${numbers(from, to)}
        INSERT INTO tasks (group_id, sequence, title, summary, author_id, assignee_id, due_at, all_day, priority, status, folder_id, trashed, created_at, updated_at)
        SELECT ${group}, (i - 1) / ${lit(plan.groups)} + 1, 'Task ' || i, substr(${LOREM}, 1, 20 + CAST(${mix(plan, 11)} % 160 AS INTEGER)), ${member(5)},
          CASE WHEN ${mix(plan, 12)} % 4 = 0 THEN NULL ELSE ${member(6)} END, ${due}, ${allDay},
          CASE ${mix(plan, 13)} % 4 WHEN 0 THEN 'S' WHEN 1 THEN 'A' WHEN 2 THEN 'B' ELSE 'C' END,
          CASE ${mix(plan, 14)} % 4 WHEN 0 THEN 'NOT_STARTED' WHEN 1 THEN 'IN_PROGRESS' WHEN 2 THEN 'ON_HOLD' ELSE 'COMPLETED' END,
          NULL, 0, ${at}, ${at}
        FROM n ORDER BY i`.execute(db);
    },
    async insertCommentCounters() {
      await sql`INSERT INTO comment_counters (parent_kind, parent_id, last_number)
        SELECT parent_kind, parent_id, MAX(number) FROM comments GROUP BY parent_kind, parent_id`.execute(db);
    },
    async insertNotifications(plan) {
      if (plan.notificationTopics === 0) return;
      // As if each of the group's newest topics had been created and then commented on by its
      // author (the generator's comments are by the topic's author): every other member has a
      // notification whose count is the topic's comments; odd topics' are confirmed, with the
      // comment feed's confirmation to match.
      const last = sql`COALESCE(cc.last_number, 0)`;
      await sql`INSERT INTO notifications (user_id, group_id, item_kind, item_id, actor_id, event, confirmed, unconfirmed_comments,
          comment_number, comment_deleted, summary_updated_at, summary_updator_id, created_at, updated_at, last_access_at)
        SELECT m.user_id, t.group_id, 'BOARD', t.id, t.author_id, CASE WHEN cc.last_number IS NULL THEN 'created' ELSE 'comment' END,
          t.id % 2, CASE WHEN t.id % 2 = 1 THEN 0 ELSE ${last} END, cc.last_number, 0, NULL, NULL,
          t.published_at, t.updated_at + ${last}, CASE WHEN t.id % 2 = 1 THEN t.updated_at + ${last} ELSE NULL END
        FROM (SELECT id, group_id, author_id, published_at, updated_at,
                ROW_NUMBER() OVER (PARTITION BY group_id ORDER BY updated_at DESC, id DESC) AS r FROM topics) t
        INNER JOIN memberships m ON m.group_id = t.group_id AND m.status = 'JOIN' AND m.user_id <> t.author_id
        LEFT JOIN comment_counters cc ON cc.parent_kind = 'BOARD' AND cc.parent_id = t.id
        WHERE t.r <= ${lit(plan.notificationTopics)}
        ORDER BY m.user_id, t.updated_at, t.id`.execute(db);
      // And as if each of the group's newest tasks had just been added by its author (no comments).
      await sql`INSERT INTO notifications (user_id, group_id, item_kind, item_id, actor_id, event, confirmed, unconfirmed_comments,
          comment_number, comment_deleted, summary_updated_at, summary_updator_id, created_at, updated_at, last_access_at)
        SELECT m.user_id, k.group_id, 'TASK', k.id, k.author_id, 'created', k.sequence % 2, 0, NULL, 0, NULL, NULL,
          k.created_at, k.updated_at, CASE WHEN k.sequence % 2 = 1 THEN k.updated_at ELSE NULL END
        FROM (SELECT id, group_id, sequence, author_id, created_at, updated_at,
                ROW_NUMBER() OVER (PARTITION BY group_id ORDER BY updated_at DESC, id DESC) AS r FROM tasks) k
        INNER JOIN memberships m ON m.group_id = k.group_id AND m.status = 'JOIN' AND m.user_id <> k.author_id
        WHERE k.r <= ${lit(plan.notificationTopics)}
        ORDER BY m.user_id, k.updated_at, k.id`.execute(db);
      await sql`INSERT INTO comment_reads (user_id, parent_kind, parent_id, confirmed_at)
        SELECT user_id, item_kind, item_id, last_access_at FROM notifications WHERE confirmed = 1`.execute(db);
    },
    async insertTokens(rows) {
      for (let start = 0; start < rows.length; start += TOKEN_BATCH) {
        const batch = rows.slice(start, start + TOKEN_BATCH).map((row) => ({
          user_id: row.userId,
          app_id: row.appId,
          token_hash: row.tokenHash,
          secret: row.secret,
          label: "generated",
          created_at: row.createdAt,
        }));
        await db.insertInto("tokens").values(batch).execute();
      }
    },
  };
}

/** Rows per multi-row INSERT: 6 parameters each stays far below every engine's parameter limit. */
const TOKEN_BATCH = 500;
