import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { kairan } from "./support.js";

describe("kairan folder", () => {
  let data: string;
  before(async () => {
    data = mkdtempSync(join(tmpdir(), "kairan-cli-folder-"));
    await kairan(data, "user", "add", "--name", "Ann", "--email", "ann@example.com", "--password", "pw");
    await kairan(data, "group", "add", "--name", "Ops", "--manager", "ann@example.com");
    await kairan(data, "group", "add", "--name", "Other", "--manager", "ann@example.com");
  });
  after(() => rmSync(data, { recursive: true, force: true }));

  const folder = (...args: string[]) => kairan(data, "folder", ...args);

  it("adds, renames, moves, lists and removes the folders of each area, printing JSON", async () => {
    assert.deepEqual((await folder("add", "--group", "1:1", "--kind", "board", "--name", "News")).json(), {
      added: "folder",
      id: "1:1",
      group: "1:1",
      kind: "board",
      name: "News",
    });
    await folder("add", "--group", "1:1", "--kind", "board", "--name", "議事録");
    await folder("add", "--group", "1:1", "--kind", "board", "--name", "Later");
    assert.deepEqual(
      (await folder("move", "--group", "1:1", "--kind", "board", "--folder", "1:3", "--position", "0")).json(),
      { moved: "folder", id: "1:3", group: "1:1", kind: "board", name: "Later", position: 0 },
    );
    const renamed = await folder("rename", "--group", "1:1", "--kind", "board", "--folder", "1:1", "--name", "Notices");
    assert.equal(renamed.status, 0, renamed.stderr);
    assert.deepEqual((await folder("list", "--group", "1:1", "--kind", "board")).json(), [
      { id: "1:3", name: "Later", position: 0 },
      { id: "1:1", name: "Notices", position: 1 },
      { id: "1:2", name: "議事録", position: 2 },
    ]);
    const removed = await folder("remove", "--group", "1:1", "--kind", "board", "--folder", "1:2");
    assert.deepEqual(removed.json(), { removed: "folder", id: "1:2", group: "1:1", kind: "board", name: "議事録" });
    assert.equal((await folder("list", "--group", "1:1", "--kind", "board")).json<unknown[]>().length, 2);
    for (const kind of ["task", "cabinet"]) {
      const added = await folder("add", "--group", "1:1", "--kind", kind, "--name", `${kind} folder`);
      assert.equal(added.status, 0, added.stderr);
      assert.deepEqual(
        (await folder("list", "--group", "1:1", "--kind", kind)).json<{ name: string }[]>().map((f) => f.name),
        [`${kind} folder`],
      );
    }
  });

  it("refuses bad input with one line and status 2, and changes nothing", async () => {
    const before = (await folder("list", "--group", "1:1", "--kind", "board")).stdout;
    for (const [args, message] of [
      [["add", "--group", "1:1", "--kind", "shelf", "--name", "x"], /--kind must be one of board, task, cabinet/],
      [["add", "--group", "1:1", "--kind", "board"], /--name is required/],
      [["add", "--group", "1:1", "--kind", "board", "--name", "x".repeat(101)], /longer than 100 characters/],
      [["add", "--group", "1:99", "--kind", "board", "--name", "x"], /group does not exist/],
      [["rename", "--group", "1:1", "--kind", "board", "--folder", "1:999", "--name", "x"], /does not exist/],
      [["rename", "--group", "1:2", "--kind", "board", "--folder", "1:1", "--name", "x"], /does not exist/],
      [["rename", "--group", "1:1", "--kind", "task", "--folder", "1:1", "--name", "x"], /does not exist/],
      [["move", "--group", "1:1", "--kind", "board", "--folder", "1:1", "--position", "1.5"], /--position must be/],
      [["remove", "--group", "1:1", "--kind", "board", "--folder", "one"], /--folder must be a folder id/],
    ] as const) {
      const run = await folder(...args);
      assert.equal(run.status, 2, `${args.join(" ")}: ${run.stdout}`);
      const lines = run.stderr.split("\n").filter((line) => line !== "");
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0]!, message);
    }
    assert.equal((await folder("list", "--group", "1:1", "--kind", "board")).stdout, before);
    const longest = await folder("add", "--group", "1:2", "--kind", "board", "--name", "x".repeat(100));
    assert.equal(longest.status, 0, "the longest name passes");
  });
});
