import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { kairan } from "./support.js";

describe("kairan chat and chat rooms in seed files", () => {
  let data: string;
  before(async () => {
    data = mkdtempSync(join(tmpdir(), "kairan-cli-chat-"));
  });
  after(() => rmSync(data, { recursive: true, force: true }));

  it("loads rooms and messages from a seed, adds a room, says something, lists the rooms", async () => {
    const seed = {
      users: [
        { ref: "ann", name: "Ann", email: "ann@example.com", password: "pw-ann-123" },
        { ref: "ben", name: "Ben", email: "ben@example.com", password: "pw-ben-123" },
      ],
      groups: [{ ref: "ops", name: "Ops", members: [{ user: "ann", manager: true }, { user: "ben" }] }],
      chatRooms: [
        {
          ref: "lunch",
          type: "THEME",
          title: "Lunch",
          creator: "ann",
          members: ["ann", "ben"],
          muted: ["ben"],
          messages: [
            { author: "ben", text: "Noodles?" },
            { author: "ann", text: "Yes" },
          ],
        },
        { ref: "ab", type: "DIRECT", members: ["ann", "ben"] },
      ],
    };
    const file = join(data, "..", `chat-seed-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(seed));
    const loaded = await kairan(data, "seed", file);
    assert.equal(loaded.status, 0, loaded.stderr);
    const rooms = loaded.json<{ chatRooms: Record<string, string> }>().chatRooms;
    assert.match(rooms.lunch ?? "", /^MYPAGE,1:\d+,MP_CHAT,1:\d+$/);
    const added = await kairan(
      data,
      "chat",
      "room",
      "add",
      "--creator",
      "ann@example.com",
      "--member",
      "ben@example.com",
      "--title",
      "Ops talk",
    );
    assert.equal(added.status, 0, added.stderr);
    const room = added.json<{ id: string; members: string[] }>();
    assert.deepEqual(room.members, ["Ann", "Ben"]);
    const said = await kairan(
      data,
      "chat",
      "say",
      "--room",
      room.id,
      "--author",
      "ben@example.com",
      "--text",
      "deploy done",
    );
    assert.equal(said.status, 0, said.stderr);
    assert.match(said.json<{ id: string }>().id, /,COMMENT,1$/);
    const listed = (await kairan(data, "chat", "room", "list", "--user", "ann@example.com")).json<
      { title: string; latest: string | null }[]
    >();
    assert.deepEqual(
      listed.map((r) => [r.title, r.latest]),
      [
        ["Ops talk", "deploy done"],
        ["Lunch", "Yes"],
        ["Ben", null],
      ],
    );
    const refused = await kairan(
      data,
      "chat",
      "say",
      "--room",
      room.id,
      "--author",
      "ann@example.com",
      "--text",
      "x".repeat(3001),
    );
    assert.equal(refused.status, 2);
    assert.equal(refused.stderr.trim().split("\n").length, 1, "one line");
    assert.match(refused.stderr, /3000|3,000/);
    rmSync(file, { force: true });
  });
});
