import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { DEMO_WEEK, demoShiftDays, shiftDate, shiftSeedDates } from "../../src/seed/demo-dates.js";
import { validateSeed } from "../../src/seed/validate.js";

const at = (iso: string) => Date.parse(iso);
const demo = () => validateSeed(JSON.parse(readFileSync(new URL("../../seeds/demo.json", import.meta.url), "utf8")));

describe("the demo's dates follow the calendar", () => {
  it("moves by whole weeks to the week of the start, the week after on a Sunday (the week view's first day)", () => {
    assert.equal(new Date(DEMO_WEEK).getUTCDay(), 1, "the demo's week starts on a Monday");
    assert.equal(demoShiftDays(at("2026-11-30T00:00:00Z")), 0, "Monday of the demo's week");
    assert.equal(demoShiftDays(at("2026-12-04T23:59:59Z")), 0, "its Friday");
    assert.equal(
      demoShiftDays(at("2026-12-05T23:59:59Z")),
      0,
      "its Saturday: the week view (Sunday to Saturday) holds it",
    );
    assert.equal(demoShiftDays(at("2026-12-06T00:00:00Z")), 7, "its Sunday shows the week after");
    assert.equal(demoShiftDays(at("2026-11-29T12:00:00Z")), 0, "the Sunday before shows it");
    assert.equal(demoShiftDays(at("2026-11-28T12:00:00Z")), -7, "the Saturday before shows the week before");
    assert.equal(demoShiftDays(at("2027-03-10T08:00:00Z")), 98, "a Wednesday 14 weeks later");
    for (let day = 0; day < 60; day++)
      assert.equal(demoShiftDays(at("2030-01-01T00:00:00Z") + day * 86_400_000) % 7, 0);
  });

  it("keeps the form of each date: a plain date stays one, a UTC time keeps its time", () => {
    assert.equal(shiftDate("2026-12-05", 7), "2026-12-12");
    assert.equal(shiftDate("2026-12-29", 7), "2027-01-05");
    assert.equal(shiftDate("2026-11-30T00:30:00Z", -14), "2026-11-16T00:30:00Z");
    assert.equal(shiftDate("not a date", 7), "not a date", "left for the seed's checks to name");
  });

  it("moves every event and due date of the demo, and nothing else; the result is a valid seed", () => {
    const written = demo();
    const moved = shiftSeedDates(written, 21);
    const group = (seed: typeof written) => seed.groups[0]!;
    assert.equal(group(moved).events[0]!.start, shiftDate(group(written).events[0]!.start, 21));
    assert.equal(group(moved).events[0]!.end, shiftDate(group(written).events[0]!.end, 21));
    assert.equal(group(moved).events[0]!.rule, group(written).events[0]!.rule);
    const dueTasks = group(written).tasks.filter((task) => task.due !== undefined);
    assert.ok(dueTasks.length >= 2);
    for (const task of group(moved).tasks) {
      const before = group(written).tasks.find((t) => t.ref === task.ref)!;
      assert.equal(task.due, before.due === undefined ? undefined : shiftDate(before.due, 21));
    }
    assert.equal(moved.personalEvents[0]!.start, shiftDate(written.personalEvents[0]!.start, 21));
    assert.equal(moved.personalTasks[0]!.due, shiftDate(written.personalTasks[0]!.due!, 21));
    assert.deepEqual(moved.users, written.users);
    assert.deepEqual(moved.tokens, written.tokens, "token and invitation ends are not calendar content");
    assert.deepEqual(group(moved).invites, group(written).invites);
    assert.doesNotThrow(() => validateSeed(JSON.parse(JSON.stringify(moved))));
  });
});
