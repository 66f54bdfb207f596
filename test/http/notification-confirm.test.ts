import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { parseStringPromise } from "xml2js";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { CLIENT_NS, assertError, entriesOf, request } from "../support/http.js";
import { BoardClient, NotificationClient, field, idsOf } from "../support/notifications.js";
import { type TestServer, startTestServer } from "../support/server.js";

/** An entry as xml2js gives it: each child an array of strings (no attributes) or of objects. */
type XmlNode = Record<string, unknown[]>;

describeEachBackend("update notifications: confirming, limits and errors (/api/notification/V2)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let team: Group;
  let notifications: NotificationClient;
  let board: BoardClient;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    team = await server.factories.group([alice, bob], { name: "Team" });
    notifications = new NotificationClient(server);
    board = new BoardClient(server);
  });
  after(() => server.close());

  it("confirms 100 ids in one request, refuses 101 with nothing changed, and ignores unknown ids", async () => {
    const frank = await server.factories.user({ name: "Frank" });
    const many = await server.factories.group([alice, frank], { name: "Many" });
    const topics: string[] = [];
    for (let i = 0; i < 101; i++) topics.push(await board.create(alice, many.id, `n${i}`));
    const unconfirmed = async () =>
      (await notifications.ids(frank, `unconfirmed=true&group=1:${many.id}&max-results=100`)).length;
    assert.equal(await unconfirmed(), 100, "a page of 100; the 101st is on the next");

    const refused = await notifications.post(frank, topics);
    assertError(refused, 400, "TOO_MANY_ENTRIES");
    assert.equal(await unconfirmed(), 100, "nothing was confirmed");
    assert.equal((await notifications.ids(frank, `unconfirmed=true&start-index=100`)).length, 1);

    const confirmed = await notifications.confirm(frank, topics.slice(0, 100));
    assert.equal(confirmed.length, 100);
    assert.ok(confirmed.every((entry) => field(entry, "cbl", "confirmed") === "true"));
    assert.deepEqual(new Set(idsOf(confirmed)), new Set(topics.slice(0, 100)));
    assert.deepEqual(await notifications.ids(frank, "unconfirmed=true"), [topics[100]]);

    const last = topics[100]!;
    const ignored = [
      `GROUP,1:${many.id},BOARD,1:999999`, // no such topic
      last.replace(`GROUP,1:${many.id}`, `GROUP,1:${team.id}`), // the topic, in the wrong group
      `GROUP,1:${many.id},GW_SCHEDULE,1:999999`, // no such event
      "MYPAGE,1:1,MP_SCHEDULE,1:1", // a personal event: never notified
      `GROUP,1:${many.id},BOARD,1:1,COMMENT,1`, // comments have no notification of their own
      "not an id",
    ];
    const answer = await notifications.confirm(frank, [...ignored, last, topics[0]!, last]);
    assert.deepEqual(
      new Set(idsOf(answer)),
      new Set([last, topics[0]]),
      "each requested id once, the one confirmed before included; unknown ids left out",
    );
    assert.equal(answer.length, 2);
    assert.deepEqual(await notifications.ids(frank, "unconfirmed=true"), []);
    assert.equal((await notifications.ids(alice, `group=1:${many.id}`)).length, 0, "the author had none");
    const lone = await notifications.post(frank, `<entry ${CLIENT_NS}><id>${last}</id></entry>`);
    assert.equal(lone.status, 200, "a lone entry is read as a feed of one");
    assert.equal(
      entriesOf((await notifications.post(frank, `<feed ${CLIENT_NS}/>`)).xml).length,
      0,
      "an empty confirmation is a harmless 200",
    );
  });

  it("answers a bot posting the same id again and again with exactly that one entry, confirmed", async () => {
    const topic = await board.create(alice, team.id, "polled");
    const other = await board.create(alice, team.id, "left alone");
    for (let round = 0; round < 3; round++) {
      const answer = await notifications.post(bob, [topic]);
      assert.equal(answer.status, 200, answer.text);
      const feed = ((await parseStringPromise(answer.text)) as { feed: { entry?: XmlNode[] } }).feed;
      assert.equal(feed.entry?.length, 1, `round ${round}: exactly one entry`);
      const entry = feed.entry[0];
      assert.ok(entry);
      assert.deepEqual(entry.id, [topic]);
      assert.deepEqual(entry["cbl:confirmed"], ["true"], `round ${round}: confirmed`);
      if (round === 1) await board.comment(alice, topic, "a new comment makes it unconfirmed again");
    }
    assert.deepEqual(
      await notifications.ids(bob, `unconfirmed=true&group=1:${team.id}`),
      [other],
      "the other one is untouched",
    );
    assert.deepEqual(idsOf(await notifications.confirm(bob, ["GROUP,1:1,BOARD,1:999999"])), [], "unknown: nothing");
  });

  it("answers bad requests with the error table and lets read-level applications in", async () => {
    const reader = await server.factories.user({ name: "Reader", level: "read" });
    await server.factories.group([alice, reader]);
    assert.equal((await notifications.get(reader)).status, 200);
    assert.equal((await notifications.post(reader, [])).status, 200, "confirming is the user's own state: read level");
    assertError(await notifications.post(bob, "<confirm/>"), 400, "FEED_REQUIRED");
    assertError(await notifications.post(bob, "not xml"), 400, "XML_MALFORMED");
    assertError(await notifications.post(bob, "id=1", "text/plain"), 415, "UNSUPPORTED_MEDIA_TYPE");
    assertError(
      await request(`${server.url}/api/notification/V2`, { method: "PUT", token: bob.token }),
      405,
      "METHOD_NOT_ALLOWED",
    );
    assert.equal((await request(`${server.url}/api/notification/V2`)).status, 401);
  });
});
