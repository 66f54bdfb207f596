// The account rules at their boundaries: names and readings, new passwords, language, time zone.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ValidationError } from "../../src/domain/errors.js";
import { LIMITS } from "../../src/domain/limits.js";
import { checkNewPassword, checkUserNames, parseLanguage, parseTimeZone } from "../../src/domain/user.js";
import { dateFormat } from "../../src/web/i18n/dates.js";

function refusedWith(code: string): (error: unknown) => boolean {
  return (error) => error instanceof ValidationError && error.code === code;
}

describe("account rules", () => {
  it("takes names and readings at 100 characters (emoji and rare kanji count once) and refuses 101", () => {
    const name = "😀".repeat(LIMITS.userNameMaxChars);
    checkUserNames({ name, familyKana: "𠮷".repeat(100), givenKana: "か".repeat(100) });
    assert.throws(() => checkUserNames({ name: `${name}a` }), refusedWith("USER_NAME_TOO_LONG"));
    assert.throws(() => checkUserNames({ familyKana: "か".repeat(101) }), refusedWith("USER_READING_TOO_LONG"));
    assert.throws(() => checkUserNames({ givenKana: "か".repeat(101) }), refusedWith("USER_READING_TOO_LONG"));
    assert.throws(() => checkUserNames({ name: " \t" }), refusedWith("USER_NAME_REQUIRED"));
    assert.throws(() => checkUserNames({ name: "a\u007fb" }), refusedWith("USER_NAME_INVALID"));
    checkUserNames({ familyKana: "", givenKana: "" });
  });

  it("takes a new password of 8 to 1,024 characters typed twice alike", () => {
    checkNewPassword("12345678", "12345678");
    checkNewPassword("p".repeat(LIMITS.passwordMaxChars), "p".repeat(LIMITS.passwordMaxChars));
    assert.throws(() => checkNewPassword("", ""), refusedWith("PASSWORD_REQUIRED"));
    assert.throws(() => checkNewPassword("1234567", "1234567"), refusedWith("PASSWORD_TOO_SHORT"));
    const long = "p".repeat(LIMITS.passwordMaxChars + 1);
    assert.throws(() => checkNewPassword(long, long), refusedWith("PASSWORD_TOO_LONG"));
    assert.throws(() => checkNewPassword("12345678", "12345679"), refusedWith("PASSWORD_MISMATCH"));
  });

  it("reads a language and an IANA time zone, none for empty", () => {
    assert.equal(parseLanguage(""), null);
    assert.equal(parseLanguage("ja"), "ja");
    assert.throws(() => parseLanguage("JA"), refusedWith("LANGUAGE_INVALID"));
    assert.equal(parseTimeZone(""), null);
    assert.equal(parseTimeZone("america/new_york"), "America/New_York");
    assert.equal(parseTimeZone("UTC"), "UTC");
    for (const bad of ["Mars/Olympus", "+09:00", "-05", "Asia/Tokyo ", "../etc", "a".repeat(65)])
      assert.throws(() => parseTimeZone(bad), refusedWith("TIME_ZONE_INVALID"), bad);
  });

  it("formats one moment per (language, zone) and an all-day date as the same day in every zone", () => {
    const moment = Date.parse("2026-11-01T05:30:00Z"); // New York leaves summer time at 06:00 UTC this day
    assert.equal(dateFormat("en", "America/New_York").moment(moment), "Nov 1, 2026, 1:30 AM");
    assert.equal(dateFormat("en", "America/New_York").moment(moment + 3_600_000), "Nov 1, 2026, 1:30 AM");
    assert.equal(dateFormat("ja", "Asia/Tokyo").moment(moment), "2026/11/01 14:30");
    const day = Date.parse("2026-11-01T00:00:00Z");
    for (const zone of ["Pacific/Kiritimati", "Pacific/Pago_Pago", "UTC"]) {
      assert.equal(dateFormat("ja", zone).day(day), "2026/11/01");
      assert.equal(dateFormat("en", zone).day(day), "Nov 1, 2026");
    }
    assert.equal(dateFormat("en", "UTC"), dateFormat("en", "UTC"), "made once");
  });
});
