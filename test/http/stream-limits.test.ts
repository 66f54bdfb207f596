// Live streams are bounded: per user and per client address, one stream past the cap ends the
// oldest with `event: end` / `too-many-streams`; a stream ends after its lifetime; the metrics count
// open streams and those ended by a cap. Caps of 3 per user and 5 per address here (production: 20
// and 100); the address is set through X-Forwarded-For from a trusted proxy (127.0.0.1).
import assert from "node:assert/strict";
import { after, afterEach, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import { eventually } from "../support/eventually.js";
import type { TestUser } from "../support/factories.js";
import { request } from "../support/http.js";
import { BoardClient } from "../support/notifications.js";
import { parsePrometheusText } from "../support/prometheus-text.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type SseClient, type SseEvent, openSse } from "../support/sse.js";

describeEachBackend("live stream limits", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let users: TestUser[];
  let group: Group;
  let board: BoardClient;
  let streams: SseClient[] = [];

  before(async () => {
    const limits = { trustProxy: "127.0.0.1", streamsPerUser: "3", streamsPerAddress: "5", streamLifetime: "3600" };
    server = await startTestServer(backend, { metrics: {}, limits });
    alice = await server.factories.user({ name: "Alice" });
    users = [];
    for (let n = 0; n < 6; n++) users.push(await server.factories.user({ name: `User ${n}` }));
    group = await server.factories.group([alice, ...users]);
    board = new BoardClient(server);
  });
  afterEach(async () => {
    for (const opened of streams) opened.close();
    streams = [];
    await eventually(() => server.app.liveHub.streamCount === 0, "every stream closed");
  });
  after(() => server.close());

  const open = async (user: TestUser, address = "192.0.2.1") => {
    const live = await openSse(`${server.url}/api/stream/V2`, {
      authorization: `Bearer ${user.token}`,
      "x-forwarded-for": address,
    });
    assert.equal(live.status, 200);
    // The hub holds it before its answer's head leaves: streams open one after the other, in order.
    streams.push(live);
    return live;
  };
  const ends = (live: SseClient) => live.events.filter((event) => event.event === "end");
  const ended = (live: SseClient) => ends(live).length > 0;
  const about = (id: string) => (event: SseEvent) => event.data.includes(`<id>${id}</id>`);
  /** Every one of `live` receives a new topic. */
  const allReceive = async (live: readonly SseClient[]) => {
    const topic = await board.create(alice, group.id, "For the open streams");
    await Promise.all(live.map((one) => one.waitFor(about(topic))));
  };

  it("keeps a user's streams up to the cap; one more ends the oldest, saying why", async () => {
    const user = users[0]!;
    const first = [await open(user), await open(user), await open(user)];
    await allReceive(first);
    assert.ok(!first.some(ended), "the cap's streams all stay open");
    const fourth = await open(user);
    const [end] = await first[0]!.waitFor((event) => event.event === "end");
    assert.equal(end!.data, "too-many-streams");
    await first[0]!.ended;
    await allReceive([first[1]!, first[2]!, fourth]);
    assert.ok(![first[1], first[2], fourth].some((live) => ended(live!)));
    assert.equal(server.app.liveHub.streamCount, 3);
  });

  it("keeps an address's streams up to the cap, counting each address apart; one more ends the oldest", async () => {
    const mine = [];
    for (let n = 0; n < 5; n++) mine.push(await open(users[n]!, "192.0.2.7"));
    const elsewhere = await open(users[5]!, "192.0.2.8");
    await allReceive([...mine, elsewhere]);
    assert.ok(![...mine, elsewhere].some(ended), "five from one address and one from another all stay open");
    const sixth = await open(users[5]!, "192.0.2.7");
    const [end] = await mine[0]!.waitFor((event) => event.event === "end");
    assert.equal(end!.data, "too-many-streams");
    await allReceive([...mine.slice(1), elsewhere, sixth]);
    assert.equal(server.app.liveHub.streamCount, 6);
  });

  it("counts open streams and those a cap ended in the metrics", async () => {
    const user = users[1]!;
    const before = await endedByCap();
    for (let n = 0; n < 4; n++) await open(user, "192.0.2.9");
    await streams[0]!.waitFor((event) => event.event === "end");
    const families = parsePrometheusText((await request(`${server.url}/metrics`)).text);
    assert.equal(families.get("kairan_stream_open")?.samples[0]?.value, 3);
    assert.equal(await endedByCap(), before + 1);
  });

  it("ends a stream past its lifetime, saying why (the client resumes with Last-Event-ID)", async () => {
    const live = await open(users[2]!);
    await allReceive([live]);
    server.clock.advance(3600 * 1000);
    await board.create(alice, group.id, "Wakes the hub");
    const [end] = await live.waitFor((event) => event.event === "end");
    assert.equal(end!.data, "lifetime");
    await live.ended;
  });

  async function endedByCap(): Promise<number> {
    const families = parsePrometheusText((await request(`${server.url}/metrics`)).text);
    const sample = families
      .get("kairan_stream_ended_total")
      ?.samples.find((one) => one.labels["reason"] === "too-many-streams");
    return sample?.value ?? 0;
  }
});
