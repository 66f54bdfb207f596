// `kairan generate`'s set-based inserts on every engine: the same seed gives the same rows (on
// SQLite and PostgreSQL alike, the SQL being shared), another seed other rows; tasks are numbered
// per group without gaps and written by members; notifications cover each group's newest topics
// and tasks, for every member but the author.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Kysely } from "kysely";
import type { StoreConfig } from "../../src/config/config.js";
import { findTypicalMember, generateDataset } from "../../src/services/dataset/dataset.js";
import { openPostgresDatabase } from "../../src/store/postgres/open.js";
import type { Database } from "../../src/store/schema.js";
import { openSqliteDatabase } from "../../src/store/sqlite/open.js";
import { type Backend, type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";
import type { DatasetPlan } from "../../src/store/queries/dataset.js";

const DAY_MS = 86_400_000;
const START = Date.parse("2025-01-01T00:00:00Z") + 3_600_000; // not a midnight: all-day dues must still be one
const PLAN: DatasetPlan = {
  seed: 3,
  users: 30,
  groups: 4,
  bigGroupMembers: 25,
  membersPerGroup: 5,
  topics: 60,
  bigGroupTopics: 30,
  comments: 120,
  tasks: 42,
  notificationTopics: 4,
  startAt: START,
  events: 0,
  bigGroupEvents: 0,
  eventsAround: Date.UTC(2025, 0, 1),
};

/** Opens a fresh store, generates `plan` into it, and returns the rows that depend on the seed. */
async function generated(
  backend: Backend,
  plan: DatasetPlan,
): Promise<{ dump: Dump; typical: Awaited<ReturnType<typeof findTypicalMember>> }> {
  const opened = await openTestStore(backend);
  try {
    await generateDataset(opened, { plan, at: START, progress: () => {} });
    const typical = await findTypicalMember(opened, plan);
    const db = rawDatabase(opened.storeConfig);
    try {
      return { dump: await dumpOf(db), typical };
    } finally {
      await db.destroy();
    }
  } finally {
    await opened.close();
  }
}

describeEachBackend("kairan generate's dataset", (backend) => {
  let first: Awaited<ReturnType<typeof generated>>;
  let opened: TestStore;
  before(async () => {
    first = await generated(backend, PLAN);
    opened = await openTestStore(backend);
  });
  after(() => opened.close());

  it("is the same for the same seed, on this engine and on SQLite; another seed gives other rows", async () => {
    const again = await generated(backend, PLAN);
    assert.deepEqual(again.dump, first.dump);
    if (backend !== "sqlite")
      assert.deepEqual((await generated("sqlite", PLAN)).dump, first.dump, "the same rows as SQLite");
    const other = (await generated(backend, { ...PLAN, seed: 4 })).dump;
    for (const table of ["topics", "tasks", "notifications"] as const)
      assert.notDeepEqual(other[table], first.dump[table], `${table} follow the seed`);
  });

  it("numbers each group's tasks 1, 2, ... and has them written by and assigned to its members", () => {
    const { tasks, memberships } = first.dump;
    assert.equal(tasks.length, PLAN.tasks);
    const isMember = (groupId: number, userId: number) =>
      memberships.some((m) => m.group_id === groupId && m.user_id === userId);
    for (let groupId = 1; groupId <= PLAN.groups; groupId++) {
      const own = tasks.filter((task) => task.group_id === groupId);
      // Round-robin: 42 tasks over 4 groups are 11, 11, 10, 10.
      assert.equal(own.length, groupId <= PLAN.tasks % PLAN.groups ? 11 : 10);
      assert.deepEqual(
        own.map((task) => task.sequence),
        own.map((_, index) => index + 1),
      );
      for (const task of own) {
        assert.ok(isMember(groupId, task.author_id), `task ${task.title}: its author is a member`);
        if (task.assignee_id !== null)
          assert.ok(isMember(groupId, task.assignee_id), `task ${task.title}: its assignee is a member`);
        if (task.all_day === 1) assert.equal(task.due_at! % DAY_MS, 0, "all-day due dates are at midnight UTC");
        assert.ok(
          task.due_at === null || (task.due_at >= START - DAY_MS && task.due_at < START + 61 * DAY_MS),
          "due within 60 days",
        );
      }
    }
    // Not one state or priority per group (as a hash's low bits would give): each varies within a group.
    for (const column of ["status", "priority"] as const) {
      const group1 = new Set(tasks.filter((task) => task.group_id === 1).map((task) => task[column]));
      assert.ok(group1.size >= 3, `${column} varies within a group: ${[...group1].join(", ")}`);
    }
    assert.ok(
      tasks.some((task) => task.due_at === null) && tasks.some((task) => task.assignee_id === null),
      "some without due date or assignee",
    );
  });

  it("notifies every member but the author of each group's newest topics and tasks, half of them confirmed", () => {
    const { notifications, memberships, tasks, topics } = first.dump;
    for (const [kind, items] of [
      ["BOARD", topics],
      ["TASK", tasks],
    ] as const) {
      const expected = [];
      for (let groupId = 1; groupId <= PLAN.groups; groupId++) {
        const newest = items
          .filter((item) => item.group_id === groupId)
          .sort((a, b) => b.updated_at - a.updated_at)
          .slice(0, PLAN.notificationTopics);
        for (const item of newest) {
          for (const m of memberships.filter((m) => m.group_id === groupId && m.user_id !== item.author_id))
            expected.push(`${m.user_id}:${item.id}`);
        }
      }
      const actual = notifications.filter((n) => n.item_kind === kind).map((n) => `${n.user_id}:${n.item_id}`);
      assert.deepEqual(actual.sort(), expected.sort(), `${kind} notifications`);
      const confirmed = notifications.filter((n) => n.item_kind === kind && n.confirmed === 1).length;
      assert.ok(confirmed > 0 && confirmed < actual.length, `${kind}: some confirmed, some not`);
    }
  });

  it("names an ordinary group and a member of it who is also in group 1", () => {
    const { memberships } = first.dump;
    const typical = first.typical;
    assert.ok(typical && typical.groupId > 1);
    const membership = memberships.find((m) => m.group_id === typical.groupId && m.user_id === typical.userId);
    assert.equal(membership?.manager, 0, "a member, not the manager");
    assert.ok(
      memberships.some((m) => m.group_id === 1 && m.user_id === typical.userId),
      "also in group 1",
    );
  });

  it("has no typical member with a single group", async () => {
    const plan = { ...PLAN, groups: 1, topics: 0, bigGroupTopics: 0, comments: 0, tasks: 0 };
    await generateDataset(opened, { plan, at: START, progress: () => {} });
    assert.equal(await findTypicalMember(opened, plan), undefined);
  });
});

function rawDatabase(config: StoreConfig): Kysely<Database> {
  return config.kind === "sqlite" ? openSqliteDatabase(config.file) : openPostgresDatabase({ url: config.url });
}

type Dump = Awaited<ReturnType<typeof dumpOf>>;

/** Every generated row that the seed or the plan decides, in a fixed order. */
async function dumpOf(db: Kysely<Database>) {
  return {
    memberships: await db
      .selectFrom("memberships")
      .select(["group_id", "user_id", "manager"])
      .orderBy("group_id")
      .orderBy("user_id")
      .execute(),
    topics: await db
      .selectFrom("topics")
      .select(["id", "group_id", "author_id", "body", "allow_edit", "updated_at"])
      .orderBy("id")
      .execute(),
    tasks: await db
      .selectFrom("tasks")
      .select([
        "id",
        "group_id",
        "sequence",
        "title",
        "summary",
        "author_id",
        "assignee_id",
        "due_at",
        "all_day",
        "priority",
        "status",
        "updated_at",
      ])
      .orderBy("id")
      .execute(),
    notifications: await db
      .selectFrom("notifications")
      .select([
        "user_id",
        "item_kind",
        "item_id",
        "actor_id",
        "event",
        "confirmed",
        "unconfirmed_comments",
        "comment_number",
        "updated_at",
        "last_access_at",
      ])
      .orderBy("item_kind")
      .orderBy("item_id")
      .orderBy("user_id")
      .execute(),
    commentReads: await db
      .selectFrom("comment_reads")
      .select(["user_id", "parent_kind", "parent_id", "confirmed_at"])
      .orderBy("user_id")
      .orderBy("parent_kind")
      .orderBy("parent_id")
      .execute(),
  };
}
