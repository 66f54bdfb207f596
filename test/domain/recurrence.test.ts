import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EventException } from "../../src/domain/event.js";
import { expandEvent, isRuleOccurrence, seriesEndBound } from "../../src/domain/recurrence.js";

const at = (text: string) => Date.parse(text);
const iso = (ms: number) => new Date(ms).toISOString().replace(".000", "");
const DAY = 24 * 60 * 60 * 1000;

function series(
  rule: string,
  start: string,
  end: string,
  zone: string,
  exceptions: EventException[] = [],
  allDay = false,
) {
  return { start: at(start), end: at(end), allDay, timeZone: zone, rule, exceptions };
}

describe("recurrence", () => {
  it("keeps a weekly 09:00 Europe/Berlin event at 09:00 local across the change to summer time", () => {
    const event = series("FREQ=WEEKLY", "2026-03-19T08:00:00Z", "2026-03-19T09:00:00Z", "Europe/Berlin");
    const { occurrences } = expandEvent(event, { start: at("2026-03-01T00:00:00Z"), end: at("2026-04-10T00:00:00Z") });
    assert.deepEqual(
      occurrences.map((o) => [iso(o.start), iso(o.end)]),
      [
        ["2026-03-19T08:00:00Z", "2026-03-19T09:00:00Z"],
        ["2026-03-26T08:00:00Z", "2026-03-26T09:00:00Z"],
        // 09:00 CEST is 07:00 UTC.
        ["2026-04-02T07:00:00Z", "2026-04-02T08:00:00Z"],
        ["2026-04-09T07:00:00Z", "2026-04-09T08:00:00Z"],
      ],
    );
  });
  it("keeps all-day occurrences from local midnight to local midnight across a change", () => {
    const event = series(
      "FREQ=DAILY;COUNT=3",
      "2026-03-27T23:00:00Z",
      "2026-03-28T23:00:00Z",
      "Europe/Berlin",
      [],
      true,
    );
    const { occurrences } = expandEvent(event, { start: at("2026-03-01T00:00:00Z"), end: at("2026-04-10T00:00:00Z") });
    assert.deepEqual(
      occurrences.map((o) => [iso(o.start), iso(o.end)]),
      [
        ["2026-03-27T23:00:00Z", "2026-03-28T23:00:00Z"],
        ["2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z"],
        ["2026-03-29T22:00:00Z", "2026-03-30T22:00:00Z"],
      ],
    );
  });
  it("writes at most 100 occurrences and only those inside the window (half-open)", () => {
    const event = series("FREQ=DAILY", "2026-01-01T00:00:00Z", "2026-01-01T01:00:00Z", "UTC");
    const all = expandEvent(event, { start: at("2026-01-01T00:00:00Z"), end: at("2027-01-01T00:00:00Z") });
    assert.equal(all.occurrences.length, 100);
    const window = { start: at("2026-01-05T01:00:00Z"), end: at("2026-01-07T00:00:00Z") };
    assert.deepEqual(
      expandEvent(event, window).occurrences.map((o) => iso(o.start)),
      ["2026-01-06T00:00:00Z"],
    );
  });
  it("moves and cancels the occurrences its exceptions name", () => {
    const exceptions: EventException[] = [
      { originalStart: at("2026-01-02T09:00:00Z"), cancelled: true },
      {
        originalStart: at("2026-01-03T09:00:00Z"),
        cancelled: false,
        start: at("2026-01-05T13:00:00Z"),
        end: at("2026-01-05T14:00:00Z"),
      },
    ];
    const event = series("FREQ=DAILY;COUNT=4", "2026-01-01T09:00:00Z", "2026-01-01T10:00:00Z", "UTC", exceptions);
    const { occurrences } = expandEvent(event, { start: at("2026-01-01T00:00:00Z"), end: at("2026-02-01T00:00:00Z") });
    assert.deepEqual(
      occurrences.map((o) => iso(o.start)),
      ["2026-01-01T09:00:00Z", "2026-01-04T09:00:00Z", "2026-01-05T13:00:00Z"],
    );
    assert.equal(isRuleOccurrence(event, at("2026-01-03T09:00:00Z")), true);
    assert.equal(isRuleOccurrence(event, at("2026-01-03T09:30:00Z")), false);
  });
  it("follows BYDAY, BYMONTHDAY, INTERVAL and UNTIL (a date: its whole day)", () => {
    const window = { start: at("2026-01-01T00:00:00Z"), end: at("2026-12-31T00:00:00Z") };
    const starts = (rule: string) =>
      expandEvent(series(rule, "2026-01-05T09:00:00Z", "2026-01-05T10:00:00Z", "UTC"), window).occurrences.map((o) =>
        iso(o.start).slice(0, 10),
      );
    assert.deepEqual(starts("FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20260114"), [
      "2026-01-05",
      "2026-01-07",
      "2026-01-12",
      "2026-01-14",
    ]);
    assert.deepEqual(starts("FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=2"), ["2026-01-31", "2026-02-28"]);
    assert.deepEqual(starts("FREQ=MONTHLY;INTERVAL=2;BYDAY=1MO;COUNT=3"), ["2026-01-05", "2026-03-02", "2026-05-04"]);
  });
  it("bounds the series' end, and has none for a rule without COUNT or UNTIL", () => {
    const event = series("FREQ=DAILY;COUNT=3", "2026-01-01T09:00:00Z", "2026-01-01T10:00:00Z", "UTC");
    assert.ok((seriesEndBound(event) ?? 0) >= at("2026-01-03T10:00:00Z"));
    assert.equal(seriesEndBound({ ...event, rule: "FREQ=DAILY" }), undefined);
    assert.equal(seriesEndBound({ ...event, rule: null }), at("2026-01-01T10:00:00Z"));
  });
  // How long this takes is measured by `npm run bench:events` (the expansion row), not asserted here.
  it("expands 100 daily series over a 366-day window, 100 occurrences each", () => {
    const window = { start: at("2026-01-01T00:00:00Z"), end: at("2026-01-01T00:00:00Z") + 366 * DAY };
    const events = Array.from({ length: 100 }, (_, i) =>
      series(
        "FREQ=DAILY",
        iso(at("2025-06-01T09:00:00Z") + i * 60_000),
        iso(at("2025-06-01T10:00:00Z") + i * 60_000),
        "Asia/Tokyo",
      ),
    );
    for (const event of events) assert.equal(expandEvent(event, window).occurrences.length, 100);
  });
});
