// Search over what a member sees beyond a group's content (issue 31): group events, the reader's
// personal events, messages of their chat rooms, their groups. Each isolated as its own pages are.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import { ChatClient, roomId } from "../support/chat.js";
import type { TestUser } from "../support/factories.js";
import { assertValidAtom } from "../support/atom-schema.js";
import { assertError, atomText, entriesOf, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";
import { seedEvent } from "../support/world.js";

/** The result titles and kinds of a search page, in order. */
function results(html: string): string[] {
  const list = /<ul class="rows search-results">([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? "";
  return [
    ...list.matchAll(/class="row-title" href="[^"]*">([^<]*)<\/a>\s*<span class="meta"><span class="tag">([^<]*)</g),
  ].map((m) => `${m[2]}: ${m[1]}`);
}

describeEachBackend("web: search finds events, personal events, chat messages and groups", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let team: Group;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let carolWeb: WebClient;
  let room: number;
  const chat = () => new ChatClient(server);

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    carol = await f.user({ name: "Carol" });
    team = await f.group([alice, bob], { name: "Zebra crossing team" });
    await server.store.transaction((tx) =>
      tx.groups.update(team.id, { name: "Zebra crossing team", summary: "We plan the zebra parade.", at: 1 }),
    );
    await f.group([carol], { name: "Carol zebra club" });
    server.clock.advance(1000);
    await seedEvent(server, team, alice, "Zebra kickoff");
    server.clock.advance(1000);
    await server.store.transaction((tx) =>
      tx.personalEvents.insert({
        title: "Zebra dentist",
        memo: "private zebra memo",
        start: Date.UTC(2026, 3, 8, 9),
        end: Date.UTC(2026, 3, 8, 10),
        allDay: false,
        timeZone: "UTC",
        rule: null,
        exceptions: [],
        seriesEnd: Date.UTC(2026, 3, 8, 10),
        ownerId: alice.id,
        at: server.clock.now(),
      }),
    );
    room = await chat().theme(alice, "Parade room", [bob]);
    await chat().say(alice, room, "zebra stripes are ready");
    aliceWeb = new WebClient(server.url);
    await aliceWeb.signIn(alice.email);
    bobWeb = new WebClient(server.url);
    await bobWeb.signIn(bob.email);
    carolWeb = new WebClient(server.url);
    await carolWeb.signIn(carol.email);
  });
  after(() => server.close());

  it("finds the group's event, the reader's own personal event, a message of their room and their group", async () => {
    const page = await aliceWeb.get("/search?q=zebra");
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "search results of every kind");
    const found = results(page.html);
    for (const row of [
      "Event: Zebra kickoff",
      "Personal event: Zebra dentist",
      "Chat message: Alice",
      "Group: Zebra crossing team",
    ])
      assert.ok(found.includes(row), `${row} in ${JSON.stringify(found)}`);
    assert.match(page.html, /Chat: Parade room/);
    assert.match(page.html, /<mark>zebra<\/mark> stripes are ready/);
    assert.match(page.html, new RegExp(`href="/mpChat/view\\?chatRoomId=1%23${room}#comment-1"`));
    assert.doesNotMatch(page.html, /Carol/, "another group's name is never found");
  });

  it("shows another member the group's event and the room's message, never someone's personal event", async () => {
    const found = results((await bobWeb.get("/search?q=zebra")).html);
    assert.ok(found.includes("Event: Zebra kickoff"));
    assert.ok(found.includes("Chat message: Alice"));
    assert.ok(found.includes("Group: Zebra crossing team"));
    assert.ok(!found.some((row) => row.includes("dentist")), JSON.stringify(found));
    const privateWord = await bobWeb.get("/search?q=dentist");
    assert.deepEqual(results(privateWord.html), []);
  });

  it("shows a non-member nothing of the group, its events or its room, in either search mode", async () => {
    for (const q of ["zebra", "Ze", "kickoff", "stripes", "parade"]) {
      const page = await carolWeb.get(`/search?q=${encodeURIComponent(q)}`);
      const found = results(page.html);
      assert.ok(
        found.every((row) => row === "Group: Carol zebra club"),
        `${q}: ${JSON.stringify(found)}`,
      );
      // The words of the group's things (but the query itself, which the page shows back).
      for (const word of ["Zebra kickoff", "stripes are ready", "Zebra crossing", "dentist", "Parade room"])
        assert.ok(!page.html.includes(word), `${q} leaks ${word}`);
    }
  });

  it("drops a room's messages from the results once the reader leaves it", async () => {
    const other = await chat().theme(alice, "Leaving room", [bob]);
    await chat().say(alice, other, "quagga herd notes");
    assert.deepEqual(results((await bobWeb.get("/search?q=quagga")).html), ["Chat message: Alice"]);
    const left = await chat().writeRoom(bob, "delete", `<id>${roomId(bob, other)}</id>`);
    assert.equal(left.status, 200, left.text);
    assert.deepEqual(results((await bobWeb.get("/search?q=quagga")).html), []);
    assert.deepEqual(results((await aliceWeb.get("/search?q=quagga")).html), ["Chat message: Alice"]);
  });

  it("drops a group's events and name from the results of a member who left it", async () => {
    const group = await server.factories.group([alice, bob], { name: "Okapi society", managers: [alice] });
    await seedEvent(server, group, alice, "Okapi walk");
    assert.equal(results((await bobWeb.get("/search?q=okapi")).html).length, 2);
    await bobWeb.get(`/g/1:${group.id}/members`);
    assert.equal((await bobWeb.post(`/g/1:${group.id}/leave`, {})).status, 303);
    assert.deepEqual(results((await bobWeb.get("/search?q=okapi")).html), []);
  });

  it("filters by kind, and a group filter leaves out personal events and chat", async () => {
    assert.deepEqual(results((await aliceWeb.get("/search?q=zebra&kind=G_SCHEDULE")).html), ["Event: Zebra kickoff"]);
    assert.deepEqual(results((await aliceWeb.get("/search?q=zebra&kind=m_chat")).html), ["Chat message: Alice"]);
    const inGroup = results((await aliceWeb.get(`/search?q=zebra&group=1:${team.id}`)).html);
    assert.deepEqual(inGroup.sort(), ["Event: Zebra kickoff", "Group: Zebra crossing team"]);
    const short = results((await aliceWeb.get("/search?q=Ze&kind=M_SCHEDULE")).html);
    assert.deepEqual(short, ["Personal event: Zebra dentist"], "a short term scans the newest rows");
  });

  it("speaks Japanese", async () => {
    const web = new WebClient(server.url, "ja");
    await web.signIn(alice.email);
    const page = await web.get("/search?q=zebra");
    assert.match(page.html, /個人の予定/);
    assert.match(page.html, /チャット: Parade room/);
  });

  it("answers the API's search of each new kind by category; without one, a group's content only", async () => {
    const titles = async (user: TestUser, category: string) => {
      const answer = await request(`${server.url}/api/search/V2?q=zebra&category=${category}`, { token: user.token });
      assert.equal(answer.status, 200, answer.text);
      await assertValidAtom(answer.text);
      return entriesOf(answer.xml).map((e) => atomText(e, "title"));
    };
    const plain = await request(`${server.url}/api/search/V2?q=zebra`, { token: alice.token });
    assert.deepEqual(entriesOf(plain.xml), [], "no category: topics, comments, tasks and files, as before");
    assert.deepEqual(await titles(alice, "G_SCHEDULE"), ["Zebra kickoff"]);
    assert.deepEqual(await titles(alice, "m_schedule"), ["Zebra dentist"]);
    assert.deepEqual(await titles(bob, "M_SCHEDULE"), [], "nobody else's personal event");
    assert.deepEqual(await titles(alice, "GROUP"), ["Zebra crossing team"]);
    assert.deepEqual(await titles(carol, "G_SCHEDULE"), []);
    assert.deepEqual(await titles(carol, "M_CHAT"), []);
    assert.deepEqual(await titles(carol, "GROUP"), ["Carol zebra club"]);
    const chatUrl = `${server.url}/api/search/V2?q=zebra&category=M_CHAT`;
    const first = await request(chatUrl, { token: bob.token });
    const [entry] = entriesOf(first.xml);
    assert.equal(atomText(entry!, "id"), `MYPAGE,1:${bob.id},MP_CHAT,1:${room},COMMENT,1`);
    assert.match(first.text, /<cbl:excerpt>zebra stripes are ready<\/cbl:excerpt>/);
    // Chat moves no change version: a second poll is built afresh, never a kept answer.
    await chat().say(alice, room, "zebra crossing at noon");
    const again = await request(chatUrl, {
      token: bob.token,
      headers: { "if-none-match": first.headers.get("etag") ?? "" },
    });
    assert.equal(again.status, 200);
    assert.equal(entriesOf(again.xml).length, 2);
    const reader = await server.factories.sameUserAt(bob, "read");
    assertError(await request(chatUrl, { token: reader.token }), 403, "ACCESS_LEVEL_INSUFFICIENT");
    assertError(
      await request(`${server.url}/api/search/V2?q=zebra&category=NOTES`, { token: alice.token }),
      400,
      "INVALID_CATEGORY",
    );
  });
});
