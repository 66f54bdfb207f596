import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ValidationError } from "../../src/domain/errors.js";
import { dueFromForm, dueToForm, isOverdue } from "../../src/domain/task-due.js";

const refused = (code: string) => (error: unknown) => error instanceof ValidationError && error.code === code;

describe("a task's due date as typed in a form", () => {
  it("is none, a whole day, or a wall-clock time in a zone", () => {
    assert.equal(dueFromForm({ date: "", time: "", zone: "UTC" }), null);
    assert.deepEqual(dueFromForm({ date: "2026-04-10", time: "", zone: "Asia/Tokyo" }), {
      dueAt: Date.UTC(2026, 3, 10),
      allDay: true,
    });
    assert.deepEqual(dueFromForm({ date: "2026-04-10", time: "09:30", zone: "Asia/Tokyo" }), {
      dueAt: Date.UTC(2026, 3, 10, 0, 30),
      allDay: false,
    });
    assert.deepEqual(dueFromForm({ date: "2026-01-01", time: "00:15", zone: "UTC" }), {
      dueAt: Date.UTC(2026, 0, 1, 0, 15),
      allDay: false,
    });
    // London in summer is UTC+1, in winter UTC+0.
    assert.equal(
      dueFromForm({ date: "2026-07-01", time: "12:00", zone: "Europe/London" })?.dueAt,
      Date.UTC(2026, 6, 1, 11),
    );
    assert.equal(
      dueFromForm({ date: "2026-12-01", time: "12:00", zone: "Europe/London" })?.dueAt,
      Date.UTC(2026, 11, 1, 12),
    );
  });

  it("accepts the range's first and last day and refuses one day beyond each", () => {
    assert.equal(dueFromForm({ date: "1900-01-01", time: "", zone: "UTC" })?.dueAt, Date.UTC(1900, 0, 1));
    assert.equal(dueFromForm({ date: "2100-12-31", time: "", zone: "UTC" })?.dueAt, Date.UTC(2100, 11, 31));
    assert.throws(() => dueFromForm({ date: "1899-12-31", time: "", zone: "UTC" }), refused("TASK_DUE_OUT_OF_RANGE"));
    assert.throws(() => dueFromForm({ date: "2101-01-01", time: "", zone: "UTC" }), refused("TASK_DUE_OUT_OF_RANGE"));
  });

  it("refuses what is not a day, a time or a zone", () => {
    for (const date of ["2026-02-30", "2026-4-1", "tomorrow", "2026-04-01T10:00"])
      assert.throws(() => dueFromForm({ date, time: "", zone: "UTC" }), refused("TASK_DUE_DATE_INVALID"), date);
    for (const time of ["24:00", "12:60", "9:30", "noon", "12:00:00"])
      assert.throws(
        () => dueFromForm({ date: "2026-04-01", time, zone: "UTC" }),
        refused("TASK_DUE_TIME_INVALID"),
        time,
      );
    for (const zone of ["Mars/Olympus", "", "x".repeat(65), "../../etc"])
      assert.throws(() => dueFromForm({ date: "2026-04-01", time: "10:00", zone }), refused("INVALID_TIME_ZONE"), zone);
    assert.throws(() => dueFromForm({ date: "", time: "10:00", zone: "UTC" }), refused("TASK_DUE_DATE_REQUIRED"));
  });

  it("goes back into the form's fields in a zone", () => {
    assert.deepEqual(dueToForm(null, "UTC"), { date: "", time: "" });
    assert.deepEqual(dueToForm({ dueAt: Date.UTC(2026, 3, 10), allDay: true }, "Asia/Tokyo"), {
      date: "2026-04-10",
      time: "",
    });
    assert.deepEqual(dueToForm({ dueAt: Date.UTC(2026, 3, 10, 20, 5), allDay: false }, "Asia/Tokyo"), {
      date: "2026-04-11",
      time: "05:05",
    });
  });

  it("is overdue once its moment, or its whole day, has passed, unless done", () => {
    const day = Date.UTC(2026, 3, 10);
    const open = { status: "IN_PROGRESS" };
    assert.equal(isOverdue({ ...open, dueAt: null, allDay: false }, day), false);
    assert.equal(isOverdue({ ...open, dueAt: day + 1000, allDay: false }, day + 999), false);
    assert.equal(isOverdue({ ...open, dueAt: day + 1000, allDay: false }, day + 1000), true);
    assert.equal(isOverdue({ ...open, dueAt: day, allDay: true }, day + 24 * 3600 * 1000 - 1), false);
    assert.equal(isOverdue({ ...open, dueAt: day, allDay: true }, day + 24 * 3600 * 1000), true);
    assert.equal(isOverdue({ status: "COMPLETED", dueAt: day, allDay: false }, day + 1), false);
  });
});
