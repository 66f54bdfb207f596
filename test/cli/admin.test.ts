import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { buildApp } from "../../src/app.js";
import { openLocalBlobStore } from "../../src/blobs/local.js";
import { hashToken } from "../../src/auth/token.js";
import { loadConfig } from "../../src/config/config.js";
import { openSqliteStore } from "../../src/store/sqlite/open.js";
import { TestClock } from "../support/clock.js";
import { pngOf } from "../support/files.js";
import { kairan } from "./support.js";

// engines: sqlite only, because the command line is under test here (arguments, output, exit codes)
// over the --data directory it defaults to; the services and queries it drives run on both engines
// in test/http, test/web and test/store.
describe("kairan user|group|member|task|file", () => {
  let data: string;
  before(async () => {
    data = mkdtempSync(join(tmpdir(), "kairan-cli-"));
  });
  after(() => rmSync(data, { recursive: true, force: true }));

  it("sets up a group and prints what each command did", async () => {
    assert.equal(
      (await kairan(data, "user", "add", "--name", "Ann", "--email", "ann@example.com", "--password", "pw")).json<{
        id: string;
      }>().id,
      "1:1",
    );
    await kairan(data, "user", "add", "--name", "Ben", "--email", "ben@example.com", "--password", "pw");
    assert.deepEqual((await kairan(data, "group", "add", "--name", "Ops", "--manager", "ann@example.com")).json(), {
      added: "group",
      id: "1:1",
      name: "Ops",
    });
    const member = (await kairan(data, "member", "add", "--group", "1:1", "--user", "ben@example.com")).json<{
      status: string;
      manager: boolean;
    }>();
    assert.deepEqual([member.status, member.manager], ["JOIN", false]);
    assert.equal(
      (
        await kairan(data, "member", "set-manager", "--group", "1:1", "--user", "ben@example.com", "--value", "true")
      ).json<{
        manager: boolean;
      }>().manager,
      true,
    );
    assert.equal(
      (
        await kairan(data, "member", "set-notify", "--group", "1:1", "--user", "ben@example.com", "--value", "false")
      ).json<{
        notify: boolean;
      }>().notify,
      false,
    );
    assert.equal(
      (await kairan(data, "member", "invite", "--group", "1:1", "--email", "cy@example.com", "--label", "Cy")).json<{
        status: string;
      }>().status,
      "INVITE",
    );
    const task = await kairan(
      data,
      "task",
      "add",
      "--group",
      "1:1",
      "--title",
      "Patch",
      "--author",
      "ann@example.com",
      "--assignee",
      "ben@example.com",
      "--due",
      "2026-05-01",
      "--priority",
      "S",
    );
    assert.equal(task.status, 0, task.stderr);
    assert.deepEqual(task.json(), {
      added: "task",
      id: "GROUP,1:1,TASK,1:1",
      sequence: 1,
      title: "Patch",
      status: "NOT_STARTED",
      priority: "S",
      due: "2026-05-01",
      folder: null,
      trashed: false,
    });
    assert.equal(
      (
        await kairan(
          data,
          "task",
          "update",
          "--task",
          "GROUP,1:1,TASK,1:1",
          "--status",
          "IN_PROGRESS",
          "--due",
          "2026-05-02T10:00:00Z",
        )
      ).json<{ due: string }>().due,
      "2026-05-02T10:00:00Z",
    );
    assert.equal(
      (await kairan(data, "task", "complete", "--task", "GROUP,1:1,TASK,1:1")).json<{ status: string }>().status,
      "COMPLETED",
    );
    assert.equal(
      (await kairan(data, "task", "move", "--task", "GROUP,1:1,TASK,1:1", "--folder", "TRASH")).json<{
        trashed: boolean;
      }>().trashed,
      true,
    );
    assert.equal((await kairan(data, "user", "list")).json<unknown[]>().length, 2);
    assert.equal((await kairan(data, "group", "list")).json<unknown[]>().length, 1);
  });

  it("refuses bad input with a clear message and exit status 2", async () => {
    const cases: [string[], RegExp][] = [
      [
        ["task", "add", "--group", "1:1", "--title", "T", "--author", "ann@example.com", "--priority", "Z"],
        /--priority must be one of S, A, B, C/,
      ],
      [
        ["task", "add", "--group", "1:1", "--title", "T", "--author", "ann@example.com", "--due", "2026-02-30"],
        /--due must be a date/,
      ],
      [["task", "add", "--group", "1:9", "--title", "T", "--author", "ann@example.com"], /group does not exist/],
      [
        ["task", "add", "--group", "1:1", "--title", "T", "--author", "nobody@example.com"],
        /No user has the e-mail address/,
      ],
      [["task", "complete", "--task", "GROUP,1:1,BOARD,1:1"], /--task must be an id/],
      [["user", "add", "--name", "Ann", "--email", "ann@example.com", "--password", "x"], /exists already/],
      [
        ["member", "set-manager", "--group", "1:1", "--user", "ben@example.com", "--value", "maybe"],
        /--value must be true or false/,
      ],
      [
        ["file", "add", "--group", "1:1", "--author", "ann@example.com", "--path", "/no/such/file"],
        /--path: .* is not a readable file/,
      ],
      [["task", "frobnicate"], /unknown subcommand/],
    ];
    for (const [args, message] of cases) {
      const run = await kairan(data, ...args);
      assert.equal(run.status, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.equal(run.stdout, "");
    }
    await kairan(data, "member", "set-manager", "--group", "1:1", "--user", "ben@example.com", "--value", "false");
    const last = await kairan(data, "member", "remove", "--group", "1:1", "--user", "ann@example.com");
    assert.equal(last.status, 2);
    assert.match(last.stderr, /last manager/);
  });

  it("adds a file from disk that the API serves byte for byte, with its image size", async () => {
    const png = await pngOf(300, 90);
    const path = join(data, "chart.png");
    writeFileSync(path, png);
    const added = await kairan(
      data,
      "file",
      "add",
      "--group",
      "1:1",
      "--author",
      "ann@example.com",
      "--path",
      path,
      "--memo",
      "Q1",
    );
    assert.equal(added.status, 0, added.stderr);
    const file = added.json<{ id: string; width: number; height: number; size: number }>();
    assert.deepEqual([file.width, file.height, file.size], [300, 90, png.length]);
    writeFileSync(join(data, "chart-v2.txt"), "not an image any more");
    const version = await kairan(
      data,
      "file",
      "add-version",
      "--file",
      file.id,
      "--author",
      "ann@example.com",
      "--path",
      join(data, "chart-v2.txt"),
      "--comment",
      "text now",
    );
    assert.equal(version.json<{ version: number }>().version, 2);

    const config = loadConfig({ port: "0", data, logLevel: "silent", noDemo: true }, {});
    const store = openSqliteStore(join(data, "kairan.sqlite"));
    const clock = new TestClock();
    await store.transaction(async (tx) => {
      const app = await tx.apps.insert({
        name: "t",
        consumerKey: "k",
        consumerSecret: "s",
        accessLevel: "read",
        createdAt: 0,
      });
      await tx.tokens.insert({
        userId: 1,
        appId: app.id,
        tokenHash: hashToken("ann-token"),
        secret: "x",
        label: "",
        createdAt: 0,
      });
    });
    const app = buildApp({ config, store, blobs: openLocalBlobStore(data), clock });
    await app.listen({ port: 0, host: "127.0.0.1" });
    try {
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/fileDownload/V2?id=${encodeURIComponent(file.id)}`;
      const headers = { authorization: "Bearer ann-token" };
      const first = await fetch(`${base}&version=1`, { headers });
      assert.equal(first.status, 200);
      assert.deepEqual(Buffer.from(await first.arrayBuffer()), png);
      assert.equal(await (await fetch(base, { headers })).text(), "not an image any more");
    } finally {
      await app.close();
      await store.close();
    }
    assert.equal((await kairan(data, "file", "trash", "--file", file.id)).json<{ trashed: boolean }>().trashed, true);
  });
});
