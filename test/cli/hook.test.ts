// `kairan hook add|list|remove`: the address printed once, the listing without secrets, revocation;
// bad options are one-line errors with exit 2.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { kairan } from "./support.js";

describe("kairan hook", () => {
  let data: string;
  before(() => {
    data = mkdtempSync(join(tmpdir(), "kairan-cli-hook-"));
  });
  after(() => rmSync(data, { recursive: true, force: true }));

  it("adds a group's hook and prints its address once; lists and removes it", async () => {
    const seed = {
      users: [
        { ref: "ann", name: "Ann", email: "ann@example.com", password: "pw-ann-123" },
        { ref: "ben", name: "Ben", email: "ben@example.com", password: "pw-ben-123" },
      ],
      groups: [{ ref: "ops", name: "Ops", members: [{ user: "ann", manager: true }, { user: "ben" }] }],
    };
    const file = join(data, "..", `hook-seed-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(seed));
    const loaded = await kairan(data, "seed", file);
    assert.equal(loaded.status, 0, loaded.stderr);
    const group = loaded.json<{ groups: Record<string, string> }>().groups.ops ?? "";
    const added = await kairan(
      data,
      "hook",
      "add",
      "--group",
      group,
      "--name",
      "CI",
      "--creator",
      "ann@example.com",
      "--public-url",
      "https://kairan.example.com",
    );
    assert.equal(added.status, 0, added.stderr);
    const hook = added.json<{ id: string; name: string; address: string; posts: { topicsIn: string } }>();
    assert.equal(hook.name, "CI");
    assert.match(hook.address, /^https:\/\/kairan\.example\.com\/hooks\/[A-Za-z0-9_-]{32}$/);
    const secret = hook.address.split("/").pop() ?? "";

    const listed = await kairan(data, "hook", "list", "--group", group);
    assert.equal(listed.status, 0, listed.stderr);
    assert.equal(listed.json<unknown[]>().length, 1);
    assert.ok(!listed.stdout.includes(secret), "the listing never shows the secret");

    const refused = await kairan(data, "hook", "add", "--group", group, "--name", "x", "--creator", "ben@example.com");
    assert.equal(refused.status, 2, "a member who does not manage the group");
    assert.match(refused.stderr, /MANAGER_REQUIRED|manager/i);
    const both = await kairan(data, "hook", "add", "--group", group, "--room", "MYPAGE,1:1,MP_CHAT,1:1", "--name", "x");
    assert.equal(both.status, 2);
    assert.equal(both.stderr.trim().split("\n").length >= 1, true);

    const removed = await kairan(data, "hook", "remove", "--hook", hook.id);
    assert.equal(removed.status, 0, removed.stderr);
    assert.equal((await kairan(data, "hook", "list", "--group", group)).json<unknown[]>().length, 0);
    assert.equal((await kairan(data, "hook", "remove", "--hook", hook.id)).status, 2, "gone already");
  });
});
