import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { kairan } from "./support.js";

describe("kairan task add --user and personal tasks in seed files", () => {
  let data: string;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "kairan-cli-todo-"));
    data = join(dir, "data");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const seedFile = (seed: unknown) => {
    const file = join(dir, `seed-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(seed));
    return file;
  };

  it("loads personal tasks from a seed and adds one from the command line", async () => {
    const loaded = await kairan(
      data,
      "seed",
      seedFile({
        users: [{ ref: "ann", name: "Ann", email: "ann@example.com", password: "pw-ann-123" }],
        personalTasks: [
          { ref: "milk", owner: "ann", title: "Buy milk", due: "2026-12-01", priority: "A" },
          { ref: "call", owner: "ann", title: "Call home", status: "COMPLETED" },
        ],
      }),
    );
    assert.equal(loaded.status, 0, loaded.stderr);
    const tasks = loaded.json<{ personalTasks: Record<string, string> }>().personalTasks;
    assert.match(tasks.milk ?? "", /^MYPAGE,1:\d+,TASK,1:\d+$/);
    assert.notEqual(tasks.milk, tasks.call);
    const added = await kairan(
      data,
      "task",
      "add",
      "--user",
      "ann@example.com",
      "--title",
      "Pay rent",
      "--due",
      "2026-12-01T09:00:00Z",
      "--priority",
      "S",
    );
    assert.equal(added.status, 0, added.stderr);
    const task = added.json<{ added: string; id: string; sequence: number; due: string; priority: string }>();
    assert.equal(task.added, "personal task");
    assert.match(task.id, /^MYPAGE,1:\d+,TASK,1:\d+$/);
    assert.equal(task.sequence, 3, "numbered after the seeded two");
    assert.equal(task.due, "2026-12-01T09:00:00Z");
    assert.equal(task.priority, "S");
  });

  it("refuses bad input with a clear message and writes nothing", async () => {
    const max = "t".repeat(200);
    assert.equal((await kairan(data, "task", "add", "--user", "ann@example.com", "--title", max)).status, 0);
    const long = await kairan(data, "task", "add", "--user", "ann@example.com", "--title", `${max}x`);
    assert.equal(long.status, 2);
    assert.match(long.stderr, /200/);
    const mixed = await kairan(data, "task", "add", "--user", "ann@example.com", "--group", "1:1", "--title", "x");
    assert.equal(mixed.status, 2);
    assert.match(mixed.stderr, /--group does not go with --user/);
    const nobody = await kairan(data, "task", "add", "--user", "nobody@example.com", "--title", "x");
    assert.notEqual(nobody.status, 0);
    assert.match(nobody.stderr, /nobody@example\.com|user/i);
    const badSeed = await kairan(
      data,
      "seed",
      seedFile({
        users: [{ ref: "cat", name: "Cat", email: "cat@example.com", password: "pw-cat-123" }],
        personalTasks: [
          { ref: "a", owner: "dog", title: "x" },
          { ref: "b", owner: "cat", title: "y".repeat(201) },
        ],
      }),
    );
    assert.equal(badSeed.status, 2);
    assert.match(badSeed.stderr, /personalTasks\[0\]\.owner: no user with ref "dog"/);
    assert.match(badSeed.stderr, /personalTasks\[1\]: .*200/);
    const badDue = await kairan(
      data,
      "seed",
      seedFile({
        users: [{ ref: "cat", name: "Cat", email: "cat@example.com", password: "pw-cat-123" }],
        personalTasks: [{ ref: "c", owner: "cat", title: "z", due: "2026-02-30" }],
      }),
    );
    assert.equal(badDue.status, 2);
    assert.match(badDue.stderr, /personalTasks\[0\]\.due/);
    assert.equal((await kairan(data, "user", "list")).stdout.includes("cat@example.com"), false, "nothing was loaded");
  });
});
