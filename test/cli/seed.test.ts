import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { kairan } from "./support.js";

const DEMO = JSON.parse(readFileSync(new URL("../../seeds/demo.json", import.meta.url), "utf8")) as {
  groups: { tasks: { due?: string }[]; events: { end: string; rule?: string; creator: string }[] }[];
  personalEvents: { ref: string; owner: string; title: string; end: string; rule?: string }[];
};

describe("kairan seed with tasks and files", () => {
  let data: string;
  before(async () => {
    data = mkdtempSync(join(tmpdir(), "kairan-seed-"));
  });
  after(() => rmSync(data, { recursive: true, force: true }));

  it("refuses a bad task due date, naming its path, and writes nothing", async () => {
    const bad = structuredClone(DEMO);
    bad.groups[0]!.tasks[2]!.due = "next tuesday";
    const file = join(data, "bad.json");
    writeFileSync(file, JSON.stringify(bad));
    const run = await kairan(data, "seed", file);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /groups\[0\]\.tasks\[2\]\.due: not a date/);
    assert.equal(run.stdout, "");
    assert.deepEqual((await kairan(data, "user", "list")).json(), [], "no row written");
    assert.deepEqual(
      readdirSync(data).filter((name) => name === "blobs"),
      [],
      "no bytes written",
    );
  });

  it("refuses events that break the event rules or name what the group lacks", async () => {
    const bad = structuredClone(DEMO);
    bad.groups[0]!.events[1]!.end = "2026-11-30T00:00:00Z";
    bad.groups[0]!.events[0]!.rule = "FREQ=HOURLY";
    bad.groups[0]!.events[2]!.creator = "nobody";
    const file = join(data, "bad-events.json");
    writeFileSync(file, JSON.stringify(bad));
    const run = await kairan(data, "seed", file);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /groups\[0\]\.events\[1\]: endTime must be later/);
    assert.match(run.stderr, /groups\[0\]\.events\[0\]: cblSch:rule: FREQ/);
    assert.match(run.stderr, /groups\[0\]\.events\[2\]\.creator: no member of this group/);
    assert.deepEqual((await kairan(data, "user", "list")).json(), [], "no row written");
  });

  it("refuses personal events that break the event rules or name no user", async () => {
    const bad = structuredClone(DEMO);
    bad.personalEvents[0]!.owner = "nobody";
    bad.personalEvents[1]!.rule = "FREQ=HOURLY";
    bad.personalEvents[2]!.title = "x".repeat(201);
    bad.personalEvents[3]!.ref = bad.personalEvents[0]!.ref;
    const file = join(data, "bad-personal.json");
    writeFileSync(file, JSON.stringify(bad));
    const run = await kairan(data, "seed", file);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /personalEvents\[0\]\.owner: no user with ref "nobody"/);
    assert.match(run.stderr, /personalEvents\[1\]: cblSch:rule: FREQ/);
    assert.match(run.stderr, /personalEvents\[2\]: The event title is longer than 200/);
    assert.match(run.stderr, /personalEvents\[3\]\.ref: "alice-dentist" is used twice/);
    assert.deepEqual((await kairan(data, "user", "list")).json(), [], "no row written");
  });

  it("loads the demo with its tasks and files, and prints every ref", async () => {
    const run = await kairan(data, "seed", new URL("../../seeds/demo.json", import.meta.url).pathname);
    assert.equal(run.status, 0, run.stderr);
    const result = run.json<{
      tasks: Record<string, string>;
      events: Record<string, string>;
      files: Record<string, string>;
      folders: Record<string, string>;
      personalEvents: Record<string, string>;
    }>();
    assert.match(result.personalEvents["alice-dentist"] ?? "", /^MYPAGE,1:1,MP_SCHEDULE,1:\d+$/);
    assert.equal(Object.keys(result.personalEvents).length, 4, "alice's own week");
    assert.match(result.events.standup ?? "", /^GROUP,1:\d+,GW_SCHEDULE,1:\d+$/);
    assert.equal(Object.keys(result.events).length, 6, "a week of events: one-off, all-day and repeating");
    assert.match(result.tasks.ship ?? "", /^GROUP,1:\d+,TASK,1:\d+$/);
    assert.match(result.files["logo-png"] ?? "", /^GROUP,1:\d+,CABINET,1:\d+$/);
    assert.ok(result.folders.sprint && result.folders.specs);
    assert.ok(
      readdirSync(join(data, "blobs"), { recursive: true }).some((name) => String(name).endsWith(".thumbnail")),
      "the PNG got a thumbnail",
    );
  });
});
