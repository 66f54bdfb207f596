// The audit log's retention as `kairan serve` runs it: a pass deletes the rows older than the
// site's auditRetentionDays (the setting read afresh), at most once an hour by the clock, and says
// so in the log; both engines, with a test clock.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { COMMAND_LINE_ACTOR } from "../../src/domain/audit.js";
import { listAudit, recordAudit } from "../../src/services/audit/audit-log.js";
import { AUDIT_PRUNE_EVERY_MS, AuditPruner } from "../../src/services/audit/retention.js";
import { updateSiteSettings } from "../../src/services/settings/site-settings.js";
import { type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";
import { TestClock } from "../support/clock.js";

const DAY = 86_400_000;

describeEachBackend("the audit log's retention", (backend) => {
  let test: TestStore;
  let clock: TestClock;
  let ctx: ConstructorParameters<typeof AuditPruner>[0];
  const logged: Array<{ fields: Record<string, unknown>; message: string }> = [];
  const log = {
    info: (fields: Record<string, unknown>, message: string) => void logged.push({ fields, message }),
    warn: (fields: Record<string, unknown>, message: string) => void logged.push({ fields, message }),
  };

  before(async () => {
    test = await openTestStore(backend);
    clock = new TestClock(1000 * DAY);
    ctx = {
      store: test.store,
      blobs: undefined as never,
      clock,
      config: { locale: "en", timeZone: "UTC", allowSignup: false },
    };
  });
  after(() => test.close());

  /** A row written `daysAgo` days before the clock's now. */
  async function rowAged(daysAgo: number): Promise<void> {
    const at = new TestClock(clock.now() - daysAgo * DAY);
    await test.store.transaction((tx) =>
      recordAudit(tx, at, { action: "group.update", actor: COMMAND_LINE_ACTOR, details: { daysAgo } }),
    );
  }
  const ages = async () =>
    (await listAudit(ctx, { actions: ["group.update"], limit: 500 })).map((row) => JSON.parse(row.details).daysAgo);

  it("keeps the default 365 days: a row of exactly 365 days stays, one a moment older goes", async () => {
    await rowAged(1);
    await rowAged(365);
    await rowAged(365.0001);
    const pruner = new AuditPruner(ctx, log);
    assert.deepEqual(await pruner.runNow(), { keepDays: 365, deleted: 1 });
    assert.deepEqual(await ages(), [365, 1]);
    assert.equal(logged.at(-1)?.message, "audit log: rows older than the retention deleted");
    assert.deepEqual(logged.at(-1)?.fields, { keepDays: 365, deleted: 1, by: "system" });
  });

  it("prunes at most once an hour, and reads the setting afresh at each pass", async () => {
    const pruner = new AuditPruner(ctx, log);
    assert.deepEqual(await pruner.runNow(), { keepDays: 365, deleted: 0 });
    await updateSiteSettings(ctx, COMMAND_LINE_ACTOR, { auditRetentionDays: "30" });
    await rowAged(31);
    clock.advance(AUDIT_PRUNE_EVERY_MS - 1);
    assert.equal(await pruner.runNow(), undefined, "less than an hour after the last pass: nothing");
    assert.ok((await ages()).includes(31));
    clock.advance(1);
    assert.deepEqual(await pruner.runNow(), { keepDays: 30, deleted: 2 });
    assert.deepEqual(await ages(), [1]);
    // The settings change's own row is recent and stays.
    assert.equal((await listAudit(ctx, { actions: ["settings.change"], limit: 5 })).length, 1);
  });

  it("starts with a pass at once and stops cleanly", async () => {
    await rowAged(40);
    const pruner = new AuditPruner(ctx, log);
    pruner.start();
    await pruner.stop();
    assert.deepEqual(await ages(), [1]);
  });
});
