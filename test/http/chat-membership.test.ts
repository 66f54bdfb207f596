// Chat rooms follow group membership (docs/api.md "Chat"): a THEME room's members share a joined
// group with its creator, a DIRECT room's two people share one. When a membership ends (a manager
// removes a member, a member leaves, `kairan member remove`) whoever breaks the rule leaves the
// room; and every read and write checks the rule again, for rooms that broke it below the services.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { removeMember } from "../../src/services/member/member-admin.js";
import { describeEachBackend } from "../support/backends.js";
import { CHAT_NS, ChatClient, roomId, roomNumberOf } from "../support/chat.js";
import type { TestUser } from "../support/factories.js";
import { assertError, entriesOf, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type SseClient, openSse } from "../support/sse.js";
import { WebClient } from "../support/web.js";

describeEachBackend("chat rooms follow group membership", (backend) => {
  let server: TestServer;
  let chat: ChatClient;
  let n = 0;
  const streams: SseClient[] = [];

  before(async () => {
    server = await startTestServer(backend);
    chat = new ChatClient(server);
  });
  after(async () => {
    for (const stream of streams) stream.close();
    await server.close();
  });

  const person = (name: string) => server.factories.user({ name: `${name} ${++n}` });
  const membersOf = (room: number) => server.store.read(async (tx) => new Set(await tx.chat.memberIds(room)));
  const membershipOf = async (groupId: number, user: TestUser) =>
    (await server.store.read((tx) => tx.memberships.findJoined(groupId, user.id)))?.id ?? 0;
  const signedIn = async (user: TestUser) => {
    const web = new WebClient(server.url);
    await web.signIn(user.email);
    return web;
  };
  const like = (user: TestUser, room: number, message: number) =>
    request(`${server.url}/api/good/V2`, {
      token: user.token,
      body: `<feed ${CHAT_NS}><cbl:operation type="insert"/><entry><id>${roomId(user, room)},COMMENT,${message}</id></entry></feed>`,
    });
  const mute = (user: TestUser, room: number) =>
    chat.writeRoom(user, "update_setting", `<id>${roomId(user, room)}</id><cblChat:muted>true</cblChat:muted>`);

  /** Everything a former member might try on a room: each answer is the stranger's 404. */
  async function assertShutOut(user: TestUser, room: number): Promise<void> {
    assertError(await chat.rooms(user, `id=${encodeURIComponent(roomId(user, room))}`), 404, "NOT_FOUND");
    assertError(await chat.messages(user, room), 404, "NOT_FOUND");
    assertError(await chat.push(user, room, "still here?"), 404, "NOT_FOUND");
    assertError(await like(user, room, 1), 404, "NOT_FOUND");
    assertError(await mute(user, room), 404, "NOT_FOUND");
    const listed = entriesOf((await chat.rooms(user, "chat-type=THEME")).xml).map(roomNumberOf);
    const direct = entriesOf((await chat.rooms(user, "chat-type=DIRECT")).xml).map(roomNumberOf);
    assert.ok(![...listed, ...direct].includes(room), "the room is not listed");
    const notified = entriesOf((await chat.notifications(user, "&include-rule-out=true")).xml).map(roomNumberOf);
    assert.ok(!notified.includes(room), "no chat notification of it");
    const confirmed = entriesOf((await chat.notifications(user, "", [room])).xml);
    assert.equal(confirmed.length, 0, "nor one to confirm");
    const web = await signedIn(user);
    assert.equal((await web.get(`/mpChat/view?chatRoomId=1%23${room}`)).status, 404, "the web page too");
  }

  it("a member a manager removes in the browser leaves the rooms whose creator they no longer share a group with", async () => {
    const [alice, bob, carol] = [await person("Alice"), await person("Bob"), await person("Carol")];
    const team = await server.factories.group([alice, bob, carol], { name: "Team" });
    await server.factories.group([alice, carol], { name: "Board" });
    const alices = await chat.theme(alice, "Plans", [bob, carol]);
    const carols = await chat.theme(carol, "Coffee", [bob]);
    await chat.say(alice, alices, "first");
    await chat.say(carol, carols, "first");
    const aliceWeb = await signedIn(alice);
    const removed = await aliceWeb.post(`/g/1:${team.id}/members/1:${await membershipOf(team.id, bob)}/remove`, {});
    assert.equal(removed.status, 303);
    assert.deepEqual(await membersOf(alices), new Set([alice.id, carol.id]), "Carol shares the Board with Alice");
    assert.deepEqual(await membersOf(carols), new Set([carol.id]));
    await assertShutOut(bob, alices);
    await assertShutOut(bob, carols);
    await chat.say(carol, alices, "the others go on");
  });

  it("a creator who leaves keeps the room; its members who shared only that group with them leave it", async () => {
    const [alice, bob, carol] = [await person("Alice"), await person("Bob"), await person("Carol")];
    const team = await server.factories.group([alice, bob, carol], { name: "Team", managers: [alice, bob] });
    await server.factories.group([alice, carol], { name: "Board" });
    const room = await chat.theme(alice, "Plans", [bob, carol]);
    await chat.say(bob, room, "first");
    const left = await (await signedIn(alice)).post(`/g/1:${team.id}/leave`, {});
    assert.equal(left.status, 303);
    assert.deepEqual(await membersOf(room), new Set([alice.id, carol.id]));
    await assertShutOut(bob, room);
    await chat.say(alice, room, "still mine");
    await chat.say(carol, room, "still shared");
  });

  it("a DIRECT room whose two people no longer share a group closes for both; it opens again with its messages", async () => {
    const [alice, bob] = [await person("Alice"), await person("Bob")];
    const team = await server.factories.group([alice, bob], { name: "Team" });
    const room = await chat.direct(alice, bob);
    await chat.say(bob, room, "hello");
    // `kairan member remove` calls this service.
    await removeMember(server, { groupId: team.id, memberId: await membershipOf(team.id, bob) });
    assert.deepEqual(await membersOf(room), new Set());
    await assertShutOut(bob, room);
    await assertShutOut(alice, room);
    assertError(
      await chat.writeRoom(alice, "insert", `<cblChat:type>DIRECT</cblChat:type><cbl:who id="1:${bob.id}"/>`),
      400,
      "CHAT_MEMBER_INVALID",
    );
    await server.factories.group([alice, bob], { name: "Again" });
    assert.equal(await chat.direct(bob, alice), room, "the pair's one room");
    assert.deepEqual(await membersOf(room), new Set([alice.id, bob.id]));
    const messages = await chat.messages(alice, room);
    assert.match(messages.text, /hello/, "with its messages");
  });

  it("refuses on read and write a member who shares no group any more, even where nobody took them out", async () => {
    const [alice, bob, carol] = [await person("Alice"), await person("Bob"), await person("Carol")];
    const team = await server.factories.group([alice, bob, carol], { name: "Team" });
    const theme = await chat.theme(alice, "Plans", [bob, carol]);
    const direct = await chat.direct(carol, bob);
    await chat.say(alice, theme, "first");
    await chat.say(carol, direct, "first");
    // Below the services, as data from before chat rooms followed membership.
    const membership = await membershipOf(team.id, bob);
    await server.store.transaction((tx) => tx.memberships.remove(membership));
    assert.ok((await membersOf(theme)).has(bob.id), "still a member in the table");
    await assertShutOut(bob, theme);
    await assertShutOut(bob, direct);
    await assertShutOut(carol, direct);
    await chat.say(alice, theme, "the creator goes on");
    await chat.say(carol, theme, "so does Carol");
  });

  it("the live stream sends a former member no chat event of a room they can no longer use", async () => {
    const [alice, bob, dave] = [await person("Alice"), await person("Bob"), await person("Dave")];
    const team = await server.factories.group([alice, bob], { name: "Team" });
    await server.factories.group([bob, dave], { name: "Club" });
    const theirs = await chat.theme(alice, "Plans", [bob]);
    const still = await chat.theme(dave, "Club talk", [bob]);
    const live = await openSse(`${server.url}/api/stream/V2`, { authorization: `Bearer ${bob.token}` });
    streams.push(live);
    await chat.say(alice, theirs, "before");
    await live.waitFor((e) => e.event === "chat" && e.data.includes("before"));
    // Below the services, so that only the check at delivery stands between the room and Bob.
    const membership = await membershipOf(team.id, bob);
    await server.store.transaction((tx) => tx.memberships.remove(membership));
    await chat.say(alice, theirs, "after the removal");
    await chat.say(dave, still, "a later marker");
    await live.waitFor((e) => e.event === "chat" && e.data.includes("a later marker"));
    assert.ok(!live.events.some((e) => e.data.includes("after the removal")), "nothing of the room after the removal");
  });
});
