// The site's settings on each engine: the server's options until changed, a change applied at the
// next read with one audit row of before and after, and a refused change that changes nothing.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { COMMAND_LINE_ACTOR } from "../../src/domain/audit.js";
import { listAudit } from "../../src/services/audit/audit-log.js";
import {
  type SettingsContext,
  readSiteSettings,
  updateSiteSettings,
} from "../../src/services/settings/site-settings.js";
import { type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";
import { TestClock } from "../support/clock.js";

describeEachBackend("the site's settings", (backend) => {
  let test: TestStore;
  let ctx: SettingsContext;
  before(async () => {
    test = await openTestStore(backend);
    ctx = {
      store: test.store,
      blobs: undefined as never,
      clock: new TestClock(1_000_000),
      config: { locale: "ja", timeZone: "Asia/Tokyo", allowSignup: false },
    };
  });
  after(() => test.close());

  it("follows the server's options until a setting is changed", async () => {
    const settings = await readSiteSettings(ctx);
    assert.equal(settings.siteName, "Kairan");
    assert.equal(settings.signupPolicy, "invitation");
    assert.equal(settings.timeZone, "Asia/Tokyo");
  });

  it("applies a change at the next read and writes one audit row of what changed", async () => {
    const after = await updateSiteSettings(ctx, COMMAND_LINE_ACTOR, {
      siteName: "Team site",
      signupPolicy: "domains",
      signupDomains: "example.com",
      timeZone: "Asia/Tokyo",
    });
    assert.equal(after.siteName, "Team site");
    assert.deepEqual(after.signupDomains, ["example.com"]);
    assert.equal((await readSiteSettings(ctx)).signupPolicy, "domains");
    const rows = await listAudit(ctx, { actions: ["settings.change"], limit: 10 });
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.target_label, "siteName, signupPolicy, signupDomains", "the time zone did not change");
    assert.deepEqual(JSON.parse(rows[0]!.details).siteName, { before: "Kairan", after: "Team site" });
  });

  it("writes nothing when nothing changes, and nothing at all when one value is refused", async () => {
    await updateSiteSettings(ctx, COMMAND_LINE_ACTOR, { siteName: "Team site" });
    await assert.rejects(updateSiteSettings(ctx, COMMAND_LINE_ACTOR, { siteName: "Other", auditRetentionDays: "0" }), {
      code: "SETTING_INVALID",
    });
    assert.equal((await readSiteSettings(ctx)).siteName, "Team site");
    assert.equal((await listAudit(ctx, { actions: ["settings.change"], limit: 10 })).length, 1);
  });
});
