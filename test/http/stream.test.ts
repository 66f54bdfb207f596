import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { assertError, request } from "../support/http.js";
import { BoardClient } from "../support/notifications.js";
import { type SiblingServer, type TestServer, startSiblingServer, startTestServer } from "../support/server.js";
import { type SseClient, type SseEvent, openSse } from "../support/sse.js";
import { eventually } from "../support/eventually.js";
import { WebClient } from "../support/web.js";

describeEachBackend("live updates (/api/stream/V2)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let team: Group;
  let others: Group;
  let board: BoardClient;
  const streams: SseClient[] = [];
  const stream = async (user: TestUser, headers: Record<string, string> = {}, base = server.url) => {
    const opened = await openSse(`${base}/api/stream/V2`, { authorization: `Bearer ${user.token}`, ...headers });
    streams.push(opened);
    return opened;
  };
  const about = (id: string) => (event: SseEvent) => event.data.includes(`<id>${id}</id>`);

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    carol = await f.user({ name: "Carol" });
    team = await f.group([alice, bob], { name: "Team" });
    others = await f.group([carol, alice], { name: "Others" });
    board = new BoardClient(server);
  });
  after(async () => {
    for (const opened of streams) opened.close();
    await server.close();
  });

  it("answers text/event-stream and sends a notification event per new unconfirmed notification", async () => {
    const live = await stream(bob);
    assert.equal(live.status, 200);
    assert.match(String(live.headers["content-type"]), /^text\/event-stream/);
    assert.equal(live.headers["cache-control"], "no-cache, no-transform");
    const topic = await board.create(alice, team.id, "Launch", "line one\nline two");
    const [event] = await live.waitFor(about(topic));
    assert.equal(event!.event, "notification");
    assert.match(event!.id ?? "", /^[0-9]+$/);
    assert.ok(event!.data.startsWith("<entry"), event!.data);
    assert.ok(event!.data.includes("<cbl:confirmed>false</cbl:confirmed>"));
    assert.ok(event!.data.includes("line one\nline two"), "a text's line breaks arrive as data lines");
    live.close();
  });

  it("answers HEAD with the stream's head and ends it (no open stream left behind)", async () => {
    const head = await fetch(`${server.url}/api/stream/V2`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${alice.token}` },
    });
    assert.equal(head.status, 200);
    assert.match(head.headers.get("content-type") ?? "", /^text\/event-stream/);
    assert.equal(await head.text(), "");
    assert.equal(server.app.liveHub.streamCount, 0, "the hub holds no stream for a HEAD");
  });

  it("sends a likeNotification event to the liked item's author only", async () => {
    const aliceLive = await stream(alice);
    const bobLive = await stream(bob);
    const topic = await board.create(alice, team.id, "Like me");
    await bobLive.waitFor(about(topic));
    await board.like(bob, topic);
    const [liked] = await aliceLive.waitFor((event) => event.event === "likeNotification" && about(topic)(event));
    assert.ok(liked!.data.includes("<name>Bob</name>"));
    await board.create(alice, team.id, "Marker");
    await bobLive.waitFor((event) => event.data.includes("Marker"));
    assert.equal(bobLive.events.filter((event) => event.event === "likeNotification").length, 0);
  });

  it("never sends an event of a group to a non-member", async () => {
    const carolLive = await stream(carol);
    const secret = await board.create(alice, team.id, "Team secret");
    const visible = await board.create(alice, others.id, "For others");
    await carolLive.waitFor(about(visible));
    assert.equal(carolLive.events.filter(about(secret)).length, 0);
    assert.equal(carolLive.events.filter((event) => event.data.includes("Team secret")).length, 0);
  });

  it("resumes with Last-Event-ID: what was missed, once, without duplicates", async () => {
    const first = await stream(bob);
    const one = await board.create(alice, team.id, "One");
    const [seen] = await first.waitFor(about(one));
    first.close();
    await first.ended;
    const two = await board.create(alice, team.id, "Two");
    const three = await board.create(alice, team.id, "Three");
    const resumed = await stream(bob, { "last-event-id": seen!.id ?? "" });
    await resumed.waitFor((event) => about(two)(event) || about(three)(event), 2);
    const four = await board.create(alice, team.id, "Four");
    await resumed.waitFor(about(four));
    assert.equal(resumed.events.filter(about(one)).length, 0, "nothing before the id");
    const ids = resumed.events.map((event) => event.id);
    assert.deepEqual(ids, [...new Set(ids)], "no duplicates");
    assert.deepEqual(
      resumed.events.map((event) => Number(event.id)),
      resumed.events.map((event) => Number(event.id)).sort((a, b) => a - b),
      "in order",
    );
  });

  it("takes the web session cookie (a same-origin EventSource)", async () => {
    const web = new WebClient(server.url);
    await web.signIn(bob.email);
    const cookie = `kairan_session=${web.cookie("kairan_session")}`;
    const live = await openSse(`${server.url}/api/stream/V2`, { cookie });
    streams.push(live);
    assert.equal(live.status, 200);
    const topic = await board.create(alice, team.id, "For the browser");
    await live.waitFor(about(topic));
  });

  it("refuses callers without credentials (401) and a malformed Last-Event-ID (400)", async () => {
    const anonymous = await request(`${server.url}/api/stream/V2`);
    assert.equal(anonymous.status, 401);
    const bad = await request(`${server.url}/api/stream/V2`, { token: bob.token, headers: { "last-event-id": "x" } });
    assertError(bad, 400, "INVALID_LAST_EVENT_ID");
  });

  it("frees everything when the streams close: no stream left, no listener", async () => {
    for (const opened of streams) opened.close();
    await eventually(
      () => server.app.liveHub.streamCount === 0 && !server.app.liveHub.listening,
      "every stream gone and the hub no longer listening",
    );
  });

  it(
    "reaches a stream held by another server over the same database",
    { skip: backend !== "postgres" ? "PostgreSQL only: two server processes share one database" : false },
    async () => {
      const sibling: SiblingServer = await startSiblingServer(server);
      try {
        const live = await stream(bob, {}, sibling.url);
        const topic = await board.create(alice, team.id, "Across processes");
        const [event] = await live.waitFor(about(topic));
        assert.equal(event!.event, "notification");
        live.close();
      } finally {
        await sibling.close();
      }
    },
  );
});
