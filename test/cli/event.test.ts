import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { kairan } from "./support.js";

describe("kairan event", () => {
  let data: string;
  before(async () => {
    data = mkdtempSync(join(tmpdir(), "kairan-cli-event-"));
    await kairan(data, "user", "add", "--name", "Ann", "--email", "ann@example.com", "--password", "pw");
    await kairan(data, "user", "add", "--name", "Ben", "--email", "ben@example.com", "--password", "pw");
    await kairan(data, "group", "add", "--name", "Ops", "--manager", "ann@example.com");
    await kairan(data, "member", "add", "--group", "1:1", "--user", "ben@example.com");
  });
  after(() => rmSync(data, { recursive: true, force: true }));

  it("manages menus and facilities, and adds, updates and deletes one-off, all-day and repeating events", async () => {
    assert.deepEqual((await kairan(data, "event", "menu-add", "--group", "1:1", "--name", "会議")).json(), {
      added: "menu",
      id: "1:1",
      name: "会議",
    });
    await kairan(data, "event", "facility-add", "--group", "1:1", "--name", "Room A");
    assert.deepEqual((await kairan(data, "event", "facilities", "--group", "1:1")).json(), [
      { id: "1:1", name: "Room A" },
    ]);
    const added = await kairan(
      data,
      "event",
      "add",
      "--group",
      "1:1",
      "--creator",
      "ann@example.com",
      "--title",
      "Weekly",
      "--start",
      "2026-03-19T08:00:00Z",
      "--end",
      "2026-03-19T09:00:00Z",
      "--time-zone",
      "Europe/Berlin",
      "--rule",
      "FREQ=WEEKLY;COUNT=10",
      "--menu",
      "1:1",
      "--participant",
      "ben@example.com",
      "--facility",
      "1:1",
    );
    assert.equal(added.status, 0, added.stderr);
    assert.deepEqual(added.json(), {
      added: "event",
      id: "GROUP,1:1,GW_SCHEDULE,1:1",
      title: "Weekly",
      start: "2026-03-19T08:00:00Z",
      end: "2026-03-19T09:00:00Z",
      allDay: false,
      timeZone: "Europe/Berlin",
      rule: "FREQ=WEEKLY;COUNT=10",
      menu: "1:1",
      participants: ["1:2"],
      facilities: ["1:1"],
    });
    const allDay = (
      await kairan(data, "event", "add", "--group", "1:1", "--creator", "ben@example.com", "--title", "Off")
    ).stdout;
    assert.equal(allDay, "", "the times are required");
    const holiday = (
      await kairan(
        data,
        "event",
        "add",
        "--group",
        "1:1",
        "--creator",
        "ben@example.com",
        "--title",
        "Holiday",
        "--start",
        "2026-12-08",
        "--end",
        "2026-12-08",
        "--all-day",
        "--time-zone",
        "Asia/Tokyo",
      )
    ).json<{ start: string; end: string }>();
    assert.deepEqual([holiday.start, holiday.end], ["2026-12-07T15:00:00Z", "2026-12-08T15:00:00Z"]);
    const updated = (
      await kairan(
        data,
        "event",
        "update",
        "--event",
        "GROUP,1:1,GW_SCHEDULE,1:1",
        "--title",
        "Weekly sync",
        "--start",
        "2026-03-19T08:00:00Z",
        "--end",
        "2026-03-19T09:30:00Z",
      )
    ).json<{ title: string; timeZone: string; participants: string[] }>();
    assert.deepEqual([updated.title, updated.timeZone, updated.participants], ["Weekly sync", "Europe/Berlin", []]);
    assert.equal((await kairan(data, "event", "delete", "--event", "GROUP,1:1,GW_SCHEDULE,1:1")).status, 0);
  });

  it("adds, updates and deletes personal events with --user; they name no group, participant or facility", async () => {
    const add = (...extra: string[]) =>
      kairan(
        data,
        "event",
        "add",
        "--user",
        "ben@example.com",
        "--title",
        "Dentist",
        "--start",
        "2026-12-01T01:00:00Z",
        "--end",
        "2026-12-01T02:00:00Z",
        ...extra,
      );
    const added = await add("--rule", "FREQ=WEEKLY;COUNT=2");
    assert.equal(added.status, 0, added.stderr);
    const event = added.json<{ id: string; owner: string; rule: string; timeZone: string }>();
    assert.match(event.id, /^MYPAGE,1:2,MP_SCHEDULE,1:\d+$/);
    assert.deepEqual([event.owner, event.rule, event.timeZone], ["1:2", "FREQ=WEEKLY;COUNT=2", "UTC"]);
    const updated = await kairan(
      data,
      "event",
      "update",
      "--event",
      event.id,
      "--title",
      "Dentist (moved)",
      "--start",
      "2026-12-02",
      "--end",
      "2026-12-02",
      "--all-day",
      "--time-zone",
      "Asia/Tokyo",
    );
    assert.equal(updated.status, 0, updated.stderr);
    assert.deepEqual(
      (({ title, start, end, allDay, rule }) => ({ title, start, end, allDay, rule }))(
        updated.json<{ title: string; start: string; end: string; allDay: boolean; rule: null }>(),
      ),
      {
        title: "Dentist (moved)",
        start: "2026-12-01T15:00:00Z",
        end: "2026-12-02T15:00:00Z",
        allDay: true,
        rule: null,
      },
    );
    for (const extra of [
      ["--participant", "ann@example.com"],
      ["--facility", "1:1"],
      ["--menu", "1:1"],
      ["--group", "1:1"],
    ]) {
      const refused = await add(...extra);
      assert.equal(refused.status, 2, `${extra.join(" ")}: ${refused.stdout}`);
      assert.equal(refused.stderr.trim().split("\n").length, 1, refused.stderr);
    }
    assert.equal((await add("--title", "")).status, 2);
    assert.equal((await kairan(data, "event", "add", "--user", "nobody@example.com", "--title", "x")).status, 2);
    const deleted = await kairan(data, "event", "delete", "--event", event.id);
    assert.equal(deleted.status, 0, deleted.stderr);
    assert.equal(deleted.json<{ id: string }>().id, event.id);
    assert.equal((await kairan(data, "event", "delete", "--event", event.id)).status, 2, "gone");
    assert.equal(
      (await kairan(data, "event", "delete", "--event", event.id.replace("MYPAGE,1:2", "MYPAGE,1:1"))).status,
      2,
      "another owner's id names nothing",
    );
  });

  it("fails in one line with exit status 2", async () => {
    for (const args of [
      [
        "add",
        "--group",
        "1:1",
        "--creator",
        "ann@example.com",
        "--title",
        "x",
        "--start",
        "2026-01-01T00:00:00Z",
        "--end",
        "2026-01-01T00:00:00Z",
      ],
      [
        "add",
        "--group",
        "1:1",
        "--creator",
        "ann@example.com",
        "--title",
        "x",
        "--start",
        "2026-01-01T00:00:00Z",
        "--end",
        "2026-01-01T01:00:00Z",
        "--rule",
        "FREQ=HOURLY",
      ],
      ["delete", "--event", "GROUP,1:1,GW_SCHEDULE,1:99"],
      ["delete", "--event", "nonsense"],
      ["menu-add", "--group", "1:1", "--name", "x".repeat(101)],
    ]) {
      const run = await kairan(data, "event", ...args);
      assert.equal(run.status, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    }
    assert.equal((await kairan(data, "event", "menu-add", "--group", "1:1", "--name", "x".repeat(100))).status, 0);
  });
});
