import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import { ChatClient, chatField, roomId, roomNumberOf } from "../support/chat.js";
import type { User } from "../../src/domain/user.js";
import { CHAT_LIMITS } from "../../src/domain/limits.js";
import type { TestUser } from "../support/factories.js";
import { assertError, atomText, entriesOf } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("chat rooms (/api/mpChat/V2)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let stranger: TestUser;
  let chat: ChatClient;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    carol = await server.factories.user({ name: "Carol" });
    stranger = await server.factories.user({ name: "Stranger" });
    await server.factories.group([alice, bob, carol], { name: "Team" });
    chat = new ChatClient(server);
  });
  after(() => server.close());

  it("writes a room entry in the documented order, its first link exactly the room's web address", async () => {
    const room = await chat.theme(alice, "Lunch", [bob]);
    await chat.say(bob, room, "Noodles?");
    const answer = await chat.rooms(alice, "chat-type=THEME");
    assert.equal(answer.status, 200, answer.text);
    const address = `${server.url}/mpChat/view?chatRoomId=1%23${room}`;
    assert.ok(answer.text.includes(`<link rel="alternate" type="text/html" href="${address}"/>`), answer.text);
    const entry = entriesOf(answer.xml).find((e) => roomNumberOf(e) === room)!;
    const links = entry.children.filter((c) => c.local === "link");
    assert.ok(links.length >= 2, "at least two links");
    assert.equal(links[0]!.attributes.get("href"), address);
    const names = entry.children.map((c) => c.local);
    assert.deepEqual(names.slice(0, 9), [
      "id",
      "title",
      "link",
      "link",
      "category",
      "category",
      "author",
      "updated",
      "summary",
    ]);
    assert.deepEqual(names.slice(-2), ["type", "muted"]);
    assert.equal(atomText(entry, "id"), roomId(alice, room), "the id from the caller's side");
    assert.equal(atomText(entry, "summary"), "Noodles?");
    assert.equal(atomText(entry, "title"), "Lunch");
    assert.equal(chatField(entry, "cblChat", "type"), "THEME");
    assert.equal(chatField(entry, "cblChat", "muted"), "false");
    const whos = entry.children.filter((c) => c.local === "who").map((c) => c.attributes.get("id"));
    assert.deepEqual(new Set(whos), new Set([`1:${alice.id}`, `1:${bob.id}`]));
    const fromBob = entriesOf((await chat.rooms(bob, `id=${encodeURIComponent(roomId(alice, room))}`)).xml);
    assert.equal(
      atomText(fromBob[0]!, "id"),
      roomId(bob, room),
      "any side's id names the room; the answer is the reader's",
    );
  });

  it("orders rooms by their latest message and filters by type and member", async () => {
    const first = await chat.theme(alice, "First", [bob]);
    const second = await chat.theme(alice, "Second", [carol]);
    server.clock.advance(1000);
    await chat.say(alice, first, "bump");
    const themes = entriesOf((await chat.rooms(alice, "chat-type=THEME")).xml).map(roomNumberOf);
    assert.ok(themes.indexOf(first) < themes.indexOf(second), "latest message first");
    const withCarol = entriesOf((await chat.rooms(alice, `chat-type=THEME&chat-member=1:${carol.id}`)).xml).map(
      roomNumberOf,
    );
    assert.ok(withCarol.includes(second) && !withCarol.includes(first));
    const paged = entriesOf((await chat.rooms(alice, "chat-type=THEME&max-results=1")).xml);
    assert.equal(paged.length, 1);
    assertError(await chat.rooms(alice, ""), 400, "PARAMETER_REQUIRED");
    assertError(await chat.rooms(alice, "chat-type=GROUP"), 400, "INVALID_CHAT_TYPE");
  });

  it("makes a DIRECT room once per pair, named after the other person", async () => {
    const one = await chat.direct(alice, carol);
    const again = await chat.direct(carol, alice);
    assert.equal(again, one, "the pair's existing room");
    const entry = entriesOf((await chat.rooms(carol, "chat-type=DIRECT")).xml).find((e) => roomNumberOf(e) === one)!;
    assert.equal(atomText(entry, "title"), "Alice");
    assert.equal(chatField(entry, "cblChat", "type"), "DIRECT");
    assertError(await chat.writeRoom(alice, "delete", `<id>${roomId(alice, one)}</id>`), 400, "CHAT_DIRECT_FIXED");
  });

  it("refuses members who share no group with the creator, and titles of 201 characters", async () => {
    assertError(
      await chat.writeRoom(alice, "insert", `<title>x</title><cbl:who id="1:${stranger.id}"/>`),
      400,
      "CHAT_MEMBER_INVALID",
    );
    assertError(
      await chat.writeRoom(alice, "insert", `<cblChat:type>DIRECT</cblChat:type><cbl:who id="1:${stranger.id}"/>`),
      400,
      "CHAT_MEMBER_INVALID",
    );
    assert.ok((await chat.theme(alice, "t".repeat(200), [bob])) > 0, "200 characters pass");
    assertError(
      await chat.writeRoom(alice, "insert", `<title>${"t".repeat(201)}</title>`),
      400,
      "CHAT_ROOM_TITLE_TOO_LONG",
    );
  });

  it(`holds at most ${CHAT_LIMITS.themeRoomMaxMembers} members in a THEME room, creating or adding`, async () => {
    const max = CHAT_LIMITS.themeRoomMaxMembers;
    const people = await server.store.transaction(async (tx) => {
      const made: User[] = [];
      for (let i = 0; i < max; i++)
        made.push(
          await tx.users.insert({
            name: `Crowd ${i}`,
            email: `crowd${i}@example.com`,
            familyKana: "",
            givenKana: "",
            passwordHash: "x",
            createdAt: server.clock.now(),
          }),
        );
      return made;
    });
    await server.factories.group([alice, ...people], { name: "Crowd" });
    const whos = (list: readonly User[]) => list.map((p) => `<cbl:who id="1:${p.id}"/>`).join("");
    assertError(
      await chat.writeRoom(alice, "insert", `<title>Too many</title>${whos(people)}`),
      400,
      "CHAT_TOO_MANY_MEMBERS",
    );
    const full = await chat.writeRoom(alice, "insert", `<title>Full</title>${whos(people.slice(0, max - 1))}`);
    assert.equal(full.status, 200, full.text.slice(0, 300));
    const entry = entriesOf(full.xml)[0]!;
    assert.equal(entry.children.filter((c) => c.local === "who").length, max, `${max} members pass`);
    const more = `<id>${atomText(entry, "id")}</id>${whos([alice, ...people])}`;
    assertError(await chat.writeRoom(alice, "update", more), 400, "CHAT_TOO_MANY_MEMBERS");
  });

  it("lets any member add, only the creator remove, and a member leave a THEME room", async () => {
    const room = await chat.theme(alice, "Plans", [bob]);
    const id = roomId(bob, room);
    const added = await chat.writeRoom(
      bob,
      "update",
      `<id>${id}</id><cbl:who id="1:${bob.id}"/><cbl:who id="1:${alice.id}"/><cbl:who id="1:${carol.id}"/>`,
    );
    assert.equal(added.status, 200, added.text);
    assertError(
      await chat.writeRoom(bob, "update", `<id>${id}</id><cbl:who id="1:${bob.id}"/>`),
      403,
      "CHAT_NOT_CREATOR",
    );
    const renamed = await chat.writeRoom(alice, "update", `<id>${roomId(alice, room)}</id><title>Plans 2</title>`);
    assert.equal(atomText(entriesOf(renamed.xml)[0]!, "title"), "Plans 2");
    assert.equal((await chat.writeRoom(carol, "delete", `<id>${roomId(carol, room)}</id>`)).status, 200);
    assertError(await chat.rooms(carol, `id=${encodeURIComponent(roomId(carol, room))}`), 404, "NOT_FOUND");
  });

  it("never shows a room to someone outside it", async () => {
    const room = await chat.theme(alice, "Secret", [bob]);
    await chat.say(alice, room, "hush");
    assertError(await chat.rooms(stranger, `id=${encodeURIComponent(roomId(alice, room))}`), 404, "NOT_FOUND");
    assertError(await chat.messages(stranger, room), 404, "NOT_FOUND");
    assertError(await chat.push(stranger, room, "hi"), 404, "NOT_FOUND");
    assertError(
      await chat.writeRoom(
        stranger,
        "update_setting",
        `<id>${roomId(stranger, room)}</id><cblChat:muted>true</cblChat:muted>`,
      ),
      404,
      "NOT_FOUND",
    );
    assert.equal(entriesOf((await chat.rooms(stranger, "chat-type=THEME")).xml).length, 0);
    assert.equal(entriesOf((await chat.notifications(stranger, "", [room])).xml).length, 0);
    assert.ok(!(await chat.rooms(carol, "chat-type=THEME")).text.includes("Secret"));
  });
});
