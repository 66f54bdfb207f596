// The audit log's writer and reader on each engine: a row exists exactly when its action's
// transaction commits, a refusal is kept on its own, the filters and pages read what they say,
// and retention deletes only what is older than it keeps.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { AUDIT_LABEL_MAX, COMMAND_LINE_ACTOR, personActor } from "../../src/domain/audit.js";
import { listAudit, pruneAudit, recordAudit, recordRefusal } from "../../src/services/audit/audit-log.js";
import type { ServiceContext } from "../../src/services/context.js";
import { type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";
import { TestClock } from "../support/clock.js";
import { Factories } from "../support/factories.js";

const DAY = 86_400_000;

describeEachBackend("the audit log", (backend) => {
  let test: TestStore;
  let ctx: ServiceContext;
  let clock: TestClock;
  let alice: Awaited<ReturnType<Factories["user"]>>;
  let groupId: number;
  before(async () => {
    test = await openTestStore(backend);
    clock = new TestClock(100 * DAY);
    ctx = { store: test.store, blobs: undefined as never, clock };
    const factories = new Factories(test.store, clock);
    alice = await factories.user({ name: "Alice", email: "alice@example.com" });
    groupId = (await factories.group([alice], { name: "Team" })).id;
  });
  after(() => test.close());

  it("writes a row with its action's transaction, and none when that transaction rolls back", async () => {
    await test.store.transaction((tx) =>
      recordAudit(tx, clock, {
        action: "user.disable",
        actor: personActor(alice, "192.0.2.7"),
        target: { kind: "user", id: "42", label: "Bob <bob@example.com>" },
        details: { before: { disabled: false }, after: { disabled: true } },
      }),
    );
    await assert.rejects(
      test.store.transaction(async (tx) => {
        await recordAudit(tx, clock, { action: "user.delete", actor: COMMAND_LINE_ACTOR });
        throw new Error("the action failed after its row was written");
      }),
      /the action failed/,
    );
    const rows = await listAudit(ctx, { limit: 10 });
    assert.deepEqual(
      rows.map((row) => row.action),
      ["user.disable"],
    );
    const row = rows[0]!;
    assert.equal(row.outcome, "done");
    assert.equal(row.actor_user_id, alice.id);
    assert.equal(row.actor_label, "Alice <alice@example.com>");
    assert.equal(row.address, "192.0.2.7");
    assert.deepEqual([row.target_kind, row.target_id, row.target_label], ["user", "42", "Bob <bob@example.com>"]);
    assert.deepEqual(JSON.parse(row.details), { before: { disabled: false }, after: { disabled: true } });
    assert.equal(row.created_at, clock.now());
  });

  it("keeps a refusal in a row of its own", async () => {
    await recordRefusal(ctx, { action: "user.admin.grant", actor: personActor(alice), groupId });
    const [row] = await listAudit(ctx, { limit: 1 });
    assert.equal(row?.action, "user.admin.grant");
    assert.equal(row?.outcome, "refused");
    assert.equal(row?.group_id, groupId);
  });

  it("cuts labels at 200 characters, and keeps one of exactly 200", async () => {
    const exact = "x".repeat(AUDIT_LABEL_MAX);
    const long = "y".repeat(AUDIT_LABEL_MAX + 1);
    await test.store.transaction(async (tx) => {
      await recordAudit(tx, clock, { action: "group.update", actor: { label: exact } });
      await recordAudit(tx, clock, { action: "group.update", actor: { label: long } });
    });
    const [cut, kept] = await listAudit(ctx, { actions: ["group.update"], limit: 2 });
    assert.equal(kept?.actor_label, exact);
    assert.equal([...(cut?.actor_label ?? "")].length, AUDIT_LABEL_MAX);
    assert.ok(cut?.actor_label.endsWith("…"));
  });

  it("filters by action, actor, group, outcome and time, newest first, page by page", async () => {
    clock.advance(DAY);
    const from = clock.now();
    await test.store.transaction(async (tx) => {
      for (let n = 0; n < 5; n++)
        await recordAudit(tx, clock, { action: "member.add", actor: personActor(alice), groupId, details: { n } });
    });
    const all = await listAudit(ctx, { since: from, limit: 10 });
    assert.deepEqual(
      all.map((row) => JSON.parse(row.details).n),
      [4, 3, 2, 1, 0],
    );
    const first = await listAudit(ctx, { since: from, limit: 2 });
    const second = await listAudit(ctx, { since: from, limit: 2, beforeId: first.at(-1)!.id });
    assert.deepEqual(
      [...first, ...second].map((row) => JSON.parse(row.details).n),
      [4, 3, 2, 1],
    );
    assert.equal((await listAudit(ctx, { actions: ["member.add"], limit: 10 })).length, 5);
    assert.equal((await listAudit(ctx, { groupId, outcome: "done", limit: 10 })).length, 5);
    assert.equal((await listAudit(ctx, { groupId, outcome: "refused", limit: 10 })).length, 1);
    assert.equal((await listAudit(ctx, { actorUserId: alice.id, until: from, limit: 10 })).length, 2);
    assert.equal((await listAudit(ctx, { limit: 100_000 })).length, 9, "a limit past the maximum still reads all nine");
  });

  it("deletes what is older than the days it keeps, and nothing newer", async () => {
    clock.advance(30 * DAY);
    assert.equal(await pruneAudit(ctx, 30), 4, "the four rows of 31 days ago");
    assert.equal((await listAudit(ctx, { limit: 100 })).length, 5);
    assert.equal(await pruneAudit(ctx, 30), 0);
  });
});
