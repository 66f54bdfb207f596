// Chat message text is comment contents: an application below the `comments` level, refused
// `/api/comment/V2` for a room's messages, gets them nowhere else either: no `chat` events on the
// live stream, an empty room summary in `/api/mpChat/V2` and in M_CHAT notifications.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import { CHAT_NS, ChatClient, roomId } from "../support/chat.js";
import type { TestUser } from "../support/factories.js";
import { assertError, atomText, entriesOf, request } from "../support/http.js";
import { BoardClient, NotificationClient } from "../support/notifications.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type SseClient, openSse } from "../support/sse.js";

describeEachBackend("chat text below the comments level", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let reader: TestUser;
  let commenter: TestUser;
  let group: Group;
  let chat: ChatClient;
  let room: number;
  const streams: SseClient[] = [];
  const SECRET = "the launch moves to Friday";

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    reader = await f.user({ name: "Reader", level: "read" });
    commenter = await f.user({ name: "Commenter", level: "comments" });
    group = await f.group([alice, reader, commenter]);
    chat = new ChatClient(server);
    room = await chat.theme(alice, "Plans", [reader, commenter]);
  });
  after(async () => {
    for (const opened of streams) opened.close();
    await server.close();
  });

  const open = async (user: TestUser) => {
    const live = await openSse(`${server.url}/api/stream/V2`, { authorization: `Bearer ${user.token}` });
    streams.push(live);
    assert.equal(live.status, 200);
    return live;
  };

  it("sends chat events to a comments-level stream and none to a read-level one", async () => {
    const readerLive = await open(reader);
    const commenterLive = await open(commenter);
    await chat.say(alice, room, SECRET);
    const [message] = await commenterLive.waitFor((event) => event.event === "chat");
    assert.ok(message!.data.includes(SECRET));
    // Events come in the log's order: once the later topic arrives, the message would have too.
    const topic = await new BoardClient(server).create(alice, group.id, "Marker");
    await readerLive.waitFor((event) => event.data.includes(`<id>${topic}</id>`));
    assert.deepEqual(
      readerLive.events.map((event) => event.event),
      ["notification"],
    );
    assert.ok(!readerLive.events.some((event) => event.data.includes(SECRET)));
  });

  it("leaves a liked message's text out of the author's like notifications and stream below comments", async () => {
    const readerWriting = await server.factories.sameUserAt(reader, "Z");
    const readerLive = await open(reader);
    const said = atomText(await chat.say(readerWriting, room, SECRET), "id") ?? "";
    const messageNumber = /COMMENT,([0-9]+)$/.exec(said)?.[1];
    const liked = await request(`${server.url}/api/good/V2`, {
      token: alice.token,
      body: `<feed ${CHAT_NS}><entry><id>${roomId(alice, room)},COMMENT,${messageNumber}</id></entry></feed>`,
    });
    assert.equal(liked.status, 200, liked.text);
    const [event] = await readerLive.waitFor((e) => e.event === "likeNotification");
    assert.ok(!event!.data.includes(SECRET), event!.data);
    const summaries = async (user: TestUser) => {
      const answer = await new NotificationClient(server, "goodNotification").list(user);
      return answer.map((entry) => atomText(entry, "summary"));
    };
    assert.deepEqual(await summaries(reader), [""]);
    assert.deepEqual(await summaries(readerWriting), [SECRET]);
  });

  it("leaves the room summary empty below comments, in the room list and in M_CHAT notifications", async () => {
    await chat.say(alice, room, SECRET);
    assertError(await chat.messages(reader, room), 403, "ACCESS_LEVEL_INSUFFICIENT");
    const summaries = async (user: TestUser) => {
      const rooms = await chat.rooms(user, "chat-type=THEME");
      const notifications = await chat.notifications(user);
      assert.equal(rooms.status, 200, rooms.text);
      assert.equal(notifications.status, 200, notifications.text);
      return [...entriesOf(rooms.xml), ...entriesOf(notifications.xml)].map((entry) => atomText(entry, "summary"));
    };
    assert.deepEqual(await summaries(reader), ["", ""]);
    assert.deepEqual(await summaries(commenter), [SECRET, SECRET]);
    const muted = await chat.writeRoom(
      reader,
      "update_setting",
      `<id>${roomId(reader, room)}</id><cblChat:muted>true</cblChat:muted>`,
    );
    assert.equal(muted.status, 200, muted.text);
    assert.equal(atomText(entriesOf(muted.xml)[0]!, "summary"), "", "nor in the answer to muting");
  });
});
