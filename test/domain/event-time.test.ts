import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkEventText } from "../../src/domain/event.js";
import {
  oneMonthBefore,
  overlaps,
  parseTermBound,
  resolveEventTimes,
  resolveEventWindow,
} from "../../src/domain/event-time.js";
import { LIMITS } from "../../src/domain/limits.js";

const at = (text: string) => Date.parse(text);
const DAY = 24 * 60 * 60 * 1000;
const code = (error: unknown) => (error as { code: string }).code;
const throwsCode = (run: () => unknown, expected: string) => assert.throws(run, (e) => code(e) === expected);

describe("event window", () => {
  const now = at("2026-01-31T10:00:00Z");
  it("defaults to now .. one calendar month later, clamped to the month's last day", () => {
    assert.deepEqual(resolveEventWindow(undefined, undefined, now), { start: now, end: at("2026-02-28T10:00:00Z") });
  });
  it("counts the missing bound one month from the given one", () => {
    const start = at("2026-03-31T00:00:00Z");
    assert.deepEqual(resolveEventWindow(start, undefined, now), { start, end: at("2026-04-30T00:00:00Z") });
    const end = at("2026-03-31T00:00:00Z");
    assert.deepEqual(resolveEventWindow(undefined, end, now), { start: at("2026-02-28T00:00:00Z"), end });
    assert.equal(oneMonthBefore(at("2026-03-15T01:02:03Z")), at("2026-02-15T01:02:03Z"));
  });
  it("allows 366 days and refuses 366 days and a second", () => {
    const start = at("2026-01-01T00:00:00Z");
    assert.equal(resolveEventWindow(start, start + 366 * DAY, now).end, start + 366 * DAY);
    throwsCode(() => resolveEventWindow(start, start + 366 * DAY + 1000, now), "TERM_INVALID");
    assert.equal(LIMITS.eventWindowMaxDays, 366);
  });
  it("refuses an end not after the start, and bounds outside 1900..2100", () => {
    const start = at("2026-01-01T00:00:00Z");
    throwsCode(() => resolveEventWindow(start, start, now), "TERM_INVALID");
    throwsCode(() => resolveEventWindow(at("1899-12-31T23:59:59Z"), undefined, now), "TERM_INVALID");
    assert.ok(resolveEventWindow(at("1900-01-01T00:00:00Z"), undefined, now));
    assert.ok(resolveEventWindow(undefined, at("2101-01-01T00:00:00Z"), now));
    throwsCode(() => resolveEventWindow(undefined, at("2101-01-01T00:00:01Z"), now), "TERM_INVALID");
  });
  it("reads RFC 3339 with Z only", () => {
    assert.equal(parseTermBound("2026-04-01T00:00:00Z", "term-start"), at("2026-04-01T00:00:00Z"));
    assert.equal(parseTermBound("2026-04-01t00:00:00.5z", "term-start"), at("2026-04-01T00:00:00Z"));
    for (const bad of ["2026-04-01", "2026-04-01T00:00:00+09:00", "2026-02-30T00:00:00Z", "x"])
      throwsCode(() => parseTermBound(bad, "term-end"), "TERM_INVALID");
    assert.equal(parseTermBound(undefined, "term-end"), undefined);
  });
  it("is half-open: an event ending at the window's start is not in it", () => {
    const window = { start: 100, end: 200 };
    assert.equal(overlaps({ start: 50, end: 100 }, window), false);
    assert.equal(overlaps({ start: 50, end: 101 }, window), true);
    assert.equal(overlaps({ start: 199, end: 300 }, window), true);
    assert.equal(overlaps({ start: 200, end: 300 }, window), false);
  });
});

describe("event times", () => {
  it("takes UTC instants, end after start, at most 366 days", () => {
    const when = { startTime: "2026-12-08T09:00:00Z", endTime: "2026-12-08T10:00:00Z" };
    assert.deepEqual(resolveEventTimes(when, false, "UTC"), {
      start: at("2026-12-08T09:00:00Z"),
      end: at("2026-12-08T10:00:00Z"),
    });
    throwsCode(() => resolveEventTimes({ ...when, endTime: when.startTime }, false, "UTC"), "EVENT_TIME_INVALID");
    throwsCode(() => resolveEventTimes({ ...when, endTime: undefined }, false, "UTC"), "EVENT_TIME_INVALID");
    throwsCode(() => resolveEventTimes({ ...when, startTime: "2026-12-08" }, false, "UTC"), "EVENT_TIME_INVALID");
    const start = at("2026-01-01T00:00:00Z");
    const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19) + "Z";
    assert.ok(resolveEventTimes({ startTime: iso(start), endTime: iso(start + 366 * DAY) }, false, "UTC"));
    throwsCode(
      () => resolveEventTimes({ startTime: iso(start), endTime: iso(start + 366 * DAY + 1000) }, false, "UTC"),
      "EVENT_TIME_INVALID",
    );
  });
  it("writes all-day bounds as midnights of the event's zone, in UTC", () => {
    const tokyo = { start: at("2026-12-07T15:00:00Z"), end: at("2026-12-08T15:00:00Z") };
    assert.deepEqual(resolveEventTimes({ startTime: "2026-12-08", endTime: "2026-12-08" }, true, "Asia/Tokyo"), tokyo);
    assert.deepEqual(resolveEventTimes({ startTime: "2026-12-08", endTime: "2026-12-09" }, true, "Asia/Tokyo"), tokyo);
    assert.deepEqual(
      resolveEventTimes({ startTime: "2026-12-07T15:00:00Z", endTime: "2026-12-08T15:00:00Z" }, true, "Asia/Tokyo"),
      tokyo,
    );
  });
  it("keeps all-day bounds at local midnight across a change of offset", () => {
    // Europe/Berlin moves to summer time on 2026-03-29: the first day is 23 hours long.
    const times = resolveEventTimes({ startTime: "2026-03-28", endTime: "2026-03-31" }, true, "Europe/Berlin");
    assert.deepEqual(times, { start: at("2026-03-27T23:00:00Z"), end: at("2026-03-30T22:00:00Z") });
  });
});

describe("event text", () => {
  it("needs a title of at most 200 characters and a memo of at most 20,000", () => {
    assert.deepEqual(checkEventText({ title: "a".repeat(200), memo: undefined }), { title: "a".repeat(200), memo: "" });
    throwsCode(() => checkEventText({ title: "a".repeat(201), memo: "" }), "EVENT_TITLE_TOO_LONG");
    throwsCode(() => checkEventText({ title: " ", memo: "" }), "EVENT_TITLE_MISSING");
    throwsCode(() => checkEventText({ title: undefined, memo: "" }), "EVENT_TITLE_MISSING");
    assert.ok(checkEventText({ title: "t", memo: "m".repeat(20_000) }));
    throwsCode(() => checkEventText({ title: "t", memo: "m".repeat(20_001) }), "EVENT_MEMO_TOO_LONG");
  });
});
