import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { latestDigestSlot, previousDigestSlot } from "../../src/domain/mail-schedule.js";
import {
  DEFAULT_MAIL_SETTINGS,
  parseGroupMail,
  parseMailSettings,
  scopeClaim,
  scopeOfClaim,
  unsubscribed,
} from "../../src/domain/mail-settings.js";

const at = (text: string) => Date.parse(text);
const iso = (ms: number) => new Date(ms).toISOString().replace(".000", "");

describe("the daily digest's moments", () => {
  it("is the latest local hour at or before now, in the person's zone", () => {
    assert.equal(iso(latestDigestSlot(at("2026-04-01T09:00:00Z"), "Asia/Tokyo", 8)), "2026-03-31T23:00:00Z");
    assert.equal(iso(latestDigestSlot(at("2026-04-01T23:00:00Z"), "Asia/Tokyo", 8)), "2026-04-01T23:00:00Z");
    assert.equal(iso(latestDigestSlot(at("2026-04-01T22:59:59Z"), "Asia/Tokyo", 8)), "2026-03-31T23:00:00Z");
    assert.equal(iso(latestDigestSlot(at("2026-04-01T11:59:59Z"), "America/New_York", 8)), "2026-03-31T12:00:00Z");
    assert.equal(iso(latestDigestSlot(at("2026-04-01T12:00:00Z"), "America/New_York", 8)), "2026-04-01T12:00:00Z");
    assert.equal(iso(latestDigestSlot(at("2026-04-01T00:00:00Z"), "UTC", 0)), "2026-04-01T00:00:00Z");
    assert.equal(iso(latestDigestSlot(at("2026-04-01T00:00:00Z"), "UTC", 23)), "2026-03-31T23:00:00Z");
    assert.equal(iso(latestDigestSlot(at("2026-04-01T10:00:00Z"), "Asia/Kolkata", 15)), "2026-04-01T09:30:00Z");
  });

  it("keeps the local hour across a change of offset: the day before is 23 or 25 hours back", () => {
    // New York moves to EDT on 2026-03-08 and back to EST on 2026-11-01.
    const spring = latestDigestSlot(at("2026-03-08T12:30:00Z"), "America/New_York", 8);
    assert.equal(iso(spring), "2026-03-08T12:00:00Z");
    assert.equal(iso(previousDigestSlot(spring, "America/New_York")), "2026-03-07T13:00:00Z");
    const autumn = latestDigestSlot(at("2026-11-01T13:30:00Z"), "America/New_York", 8);
    assert.equal(iso(autumn), "2026-11-01T13:00:00Z");
    assert.equal(iso(previousDigestSlot(autumn, "America/New_York")), "2026-10-31T12:00:00Z");
    // 02:00 does not exist on the spring day: the moment the change names, once.
    const skipped = latestDigestSlot(at("2026-03-08T12:00:00Z"), "America/New_York", 2);
    assert.ok(skipped <= at("2026-03-08T12:00:00Z") && skipped >= at("2026-03-08T06:00:00Z"), iso(skipped));
  });
});

describe("mail settings", () => {
  it("reads the form's values at their bounds, and refuses anything else", () => {
    assert.deepEqual(parseMailSettings({ mode: "each", digestHour: "0", personal: true }), {
      mode: "each",
      digestHour: 0,
      personal: true,
    });
    assert.equal(parseMailSettings({ mode: "digest", digestHour: "23", personal: false }).digestHour, 23);
    for (const digestHour of ["24", "-1", "", "8.5", "08", " 8", "1e1"])
      assert.throws(() => parseMailSettings({ mode: "off", digestHour, personal: true }), {
        code: "MAIL_DIGEST_HOUR_INVALID",
      });
    for (const mode of ["", "EACH", "daily", "off "])
      assert.throws(() => parseMailSettings({ mode, digestHour: "8", personal: true }), { code: "MAIL_MODE_INVALID" });
    assert.equal(parseGroupMail("off"), "off");
    assert.throws(() => parseGroupMail("on"), { code: "MAIL_GROUP_INVALID" });
  });

  it("names what one-click unsubscribe stops, and turns only that off", () => {
    for (const scope of [{ kind: "group", groupId: 12 }, { kind: "digest" }, { kind: "personal" }] as const)
      assert.deepEqual(scopeOfClaim(scopeClaim(scope)), scope);
    for (const claim of ["group:0", "group:x", "group:", "all", "group:1:2", ""])
      assert.equal(scopeOfClaim(claim), undefined);
    assert.deepEqual(unsubscribed(DEFAULT_MAIL_SETTINGS, { kind: "digest" }), {
      ...DEFAULT_MAIL_SETTINGS,
      mode: "off",
    });
    assert.deepEqual(unsubscribed(DEFAULT_MAIL_SETTINGS, { kind: "personal" }), {
      ...DEFAULT_MAIL_SETTINGS,
      personal: false,
    });
    const each = { ...DEFAULT_MAIL_SETTINGS, mode: "each" as const };
    assert.equal(
      unsubscribed(each, { kind: "digest" }),
      each,
      "a digest link after choosing each change changes nothing",
    );
  });
});
