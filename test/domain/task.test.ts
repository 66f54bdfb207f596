import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isDueWithin, oneMonthAfter, parseDue, resolveTerm, taskStatusLabel } from "../../src/domain/task.js";

const at = (text: string) => Date.parse(text);

describe("task rules", () => {
  it("labels states in Japanese by default and in English with --locale en", () => {
    assert.deepEqual(
      (["NOT_STARTED", "IN_PROGRESS", "ON_HOLD", "COMPLETED"] as const).map((s) => [
        taskStatusLabel(s, "ja"),
        taskStatusLabel(s, "en"),
      ]),
      [
        ["未着手", "Not started"],
        ["対応中", "In progress"],
        ["保留", "On hold"],
        ["完了", "Completed"],
      ],
    );
  });

  it("defaults the term: none without bounds, start = now, end = one calendar month later", () => {
    const now = at("2026-01-31T10:00:00Z");
    assert.equal(resolveTerm(undefined, undefined, now), undefined);
    assert.deepEqual(resolveTerm(now, undefined, 0), { start: now, end: at("2026-02-28T10:00:00Z") });
    assert.deepEqual(resolveTerm(undefined, at("2026-02-01T00:00:00Z"), now), {
      start: now,
      end: at("2026-02-01T00:00:00Z"),
    });
    assert.equal(oneMonthAfter(at("2026-12-15T00:00:00Z")), at("2027-01-15T00:00:00Z"));
    assert.equal(
      resolveTerm(at("2100-12-20T00:00:00Z"), undefined, 0)?.end,
      at("2100-12-31T23:59:59Z"),
      "a defaulted end stays in range",
    );
  });

  it("counts an all-day task for its whole day and a task without due date in no term", () => {
    const term = { start: at("2026-04-01T09:00:00Z"), end: at("2026-04-02T00:00:00Z") };
    assert.equal(isDueWithin({ dueAt: at("2026-04-01T00:00:00Z"), allDay: true }, term), true);
    assert.equal(isDueWithin({ dueAt: at("2026-04-01T00:00:00Z"), allDay: false }, term), false);
    assert.equal(isDueWithin({ dueAt: at("2026-04-02T00:00:00Z"), allDay: true }, term), true);
    assert.equal(isDueWithin({ dueAt: null, allDay: false }, term), false);
  });

  it("reads due dates as a date (all-day) or a UTC date-time", () => {
    assert.deepEqual(parseDue("2026-12-01"), { dueAt: at("2026-12-01T00:00:00Z"), allDay: true });
    assert.deepEqual(parseDue("2026-12-01T09:30:00Z"), { dueAt: at("2026-12-01T09:30:00Z"), allDay: false });
    for (const bad of ["2026-02-30", "2026-12-01T09:30:00+09:00", "tomorrow", "2026-12-01T25:00:00Z"])
      assert.equal(parseDue(bad), undefined, bad);
  });
});
