// The live stream's `read` event (issue #31): a confirmation through any client reaches every
// stream of the person who confirmed, and no one else's, so their pages count again.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { BoardClient, NotificationClient } from "../support/notifications.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type SseClient, openSse } from "../support/sse.js";
import { WebClient } from "../support/web.js";

describeEachBackend("live updates: read events", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let team: Group;
  let board: BoardClient;
  let notifications: NotificationClient;
  const streams: SseClient[] = [];
  const stream = async (user: TestUser) => {
    const opened = await openSse(`${server.url}/api/stream/V2`, { authorization: `Bearer ${user.token}` });
    streams.push(opened);
    return opened;
  };

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    team = await server.factories.group([alice, bob], { name: "Team" });
    board = new BoardClient(server);
    notifications = new NotificationClient(server);
  });
  after(async () => {
    for (const opened of streams) opened.close();
    await server.close();
  });

  it("tells each of the confirming person's streams, once per confirmation that changed something", async () => {
    const first = await stream(bob);
    const second = await stream(bob);
    const others = await stream(alice);
    const topic = await board.create(alice, team.id, "Read me");
    await first.waitFor((event) => event.event === "notification");
    await notifications.confirm(bob, [topic]);
    server.clock.advance(1000);
    for (const live of [first, second]) {
      const [read] = await live.waitFor((event) => event.event === "read");
      assert.equal(read!.data, "notification");
      assert.match(read!.id ?? "", /^[0-9]+$/);
    }
    // Confirming again changes nothing and says nothing; a later write shows the stream went on.
    await notifications.confirm(bob, [topic]);
    await board.create(alice, team.id, "Marker");
    await first.waitFor((event) => event.data.includes("Marker"));
    assert.equal(first.events.filter((event) => event.event === "read").length, 1);
    assert.equal(others.events.filter((event) => event.event === "read").length, 0, "nobody else hears of it");
  });

  it("says `chat` when a person reads a room's messages on its page", async () => {
    const live = await stream(bob);
    const web = new WebClient(server.url);
    await web.signIn(alice.email);
    await web.get("/mpChat");
    const created = await web.post("/mpChat", { title: "Coffee", member: String(bob.id) });
    const roomId = Number(/chatRoomId=1%23(\d+)$/.exec(created.location ?? "")?.[1]);
    await web.get(created.location!);
    await web.post("/mpChat/send", { chatRoomId: `1#${roomId}`, text: "Now?" });
    const bobWeb = new WebClient(server.url);
    await bobWeb.signIn(bob.email);
    await bobWeb.get(`/mpChat/view?chatRoomId=1%23${roomId}`);
    const [read] = await live.waitFor((event) => event.event === "read" && event.data === "chat");
    assert.ok(read);
  });
});
