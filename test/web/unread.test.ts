// What the reader has not seen (issue #31): the header's counts equal the API's unconfirmed
// notifications and the unread chat messages; the lists mark new items and new comments since
// the reader's last visit; "mark all read" per group.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { addTestFile } from "../support/files.js";
import { request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

/** The header's count beside `key` (notifications, chat): 0 when hidden. */
function headerCount(html: string, key: "notifications" | "chat"): number {
  const match = new RegExp(`data-unread="${key}"[^>]*?( hidden)?><span aria-hidden="true">(\\d+)<`).exec(html);
  assert.ok(match, `the header has the ${key} count`);
  return match[1] === undefined ? Number(match[2]) : 0;
}

/** The marks of a list's rows, by the row's title. */
function marks(html: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of html.matchAll(
    /<a (?:class="row-title" )?href="[^"]*">([^<]*)<\/a>(?: <span class="new-mark">([^<]*)<\/span>)?/g,
  ))
    out.set(m[1] ?? "", m[2] ?? "");
  return out;
}

describeEachBackend("web: unread counts and new marks", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let team: Group;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    team = await server.factories.group([alice, bob], { name: "Team" });
    aliceWeb = new WebClient(server.url);
    await aliceWeb.signIn(alice.email);
    bobWeb = new WebClient(server.url);
    await bobWeb.signIn(bob.email);
  });
  after(() => server.close());

  const g = () => `/g/1:${team.id}`;

  async function alicePosts(title: string, body = "text"): Promise<string> {
    await aliceWeb.get(`${g()}/board/new`);
    const answer = await aliceWeb.post(`${g()}/board/new`, { title, body });
    assert.equal(answer.status, 303);
    server.clock.advance(1000);
    return answer.location!;
  }

  /** How many entries the API's unconfirmed notification list has for `user`. */
  async function apiUnconfirmed(user: TestUser): Promise<number> {
    const feed = await request(`${server.url}/api/notification/V2?unconfirmed=true&max-results=100`, {
      token: user.token,
    });
    assert.equal(feed.status, 200);
    return (feed.text.match(/<entry>/g) ?? []).length;
  }

  async function bobsCounts(): Promise<{ header: number; json: number; chat: number; api: number }> {
    const page = await bobWeb.get("/");
    const answer = await bobWeb.get("/unread");
    assert.equal(answer.headers.get("content-type"), "application/json; charset=utf-8");
    const counts = JSON.parse(answer.html) as { notifications: number; chat: number };
    return {
      header: headerCount(page.html, "notifications"),
      json: counts.notifications,
      chat: counts.chat,
      api: await apiUnconfirmed(bob),
    };
  }

  it("counts a new member's unconfirmed notifications as the API lists them, and drops on confirming", async () => {
    const empty = await bobsCounts();
    assert.deepEqual(empty, { header: 0, json: 0, chat: 0, api: 0 });
    const first = await alicePosts("Plan");
    await alicePosts("Budget", `Please look, @Bob`);
    const two = await bobsCounts();
    assert.equal(two.api, 3, "two notifications and a mention");
    assert.deepEqual([two.header, two.json], [3, 3], "the header says what the API lists");
    const page = await bobWeb.get("/");
    assert.match(page.html, /<span class="visually-hidden">3 unconfirmed<\/span>/);
    await assertValidHtml(page.html, "a page with the counts");
    await bobWeb.get("/notifications");
    const confirmed = await bobWeb.post("/notifications/confirm", {
      id: `GROUP,1:${team.id},BOARD,${first.split("/").pop()}`,
      back: "/notifications",
    });
    assert.equal(confirmed.status, 303);
    const one = await bobsCounts();
    assert.deepEqual([one.header, one.json, one.api], [2, 2, 2]);
    // A group set to "do not notify" leaves the list and the count alike; its mention stays.
    await bobWeb.get("/settings");
    await bobWeb.post("/settings/notify", { group: `1:${team.id}`, notify: "false" });
    const muted = await bobsCounts();
    assert.deepEqual([muted.header, muted.json, muted.api], [1, 1, 1]);
    await bobWeb.get("/settings");
    await bobWeb.post("/settings/notify", { group: `1:${team.id}`, notify: "true" });
    const ja = new WebClient(server.url, "ja");
    await ja.signIn(bob.email);
    assert.match((await ja.get("/")).html, /<span class="visually-hidden">未確認 2 件<\/span>/);
  });

  it("counts unread chat messages in the header until the room is opened", async () => {
    await aliceWeb.get("/mpChat");
    const created = await aliceWeb.post("/mpChat", { title: "Lunch", member: String(bob.id) });
    const roomId = Number(/chatRoomId=1%23(\d+)$/.exec(created.location ?? "")?.[1]);
    await aliceWeb.get(created.location!);
    await aliceWeb.post("/mpChat/send", { chatRoomId: `1#${roomId}`, text: "Noodles?" });
    await aliceWeb.post("/mpChat/send", { chatRoomId: `1#${roomId}`, text: "Or rice?" });
    assert.equal((await bobsCounts()).chat, 2);
    assert.equal(headerCount((await bobWeb.get("/")).html, "chat"), 2);
    await bobWeb.get(`/mpChat/view?chatRoomId=1%23${roomId}`);
    assert.equal((await bobsCounts()).chat, 0, "opening the room reads it");
    assert.equal(headerCount((await bobWeb.get("/")).html, "chat"), 0);
  });

  it("marks topics new until opened, then counts the comments others wrote since", async () => {
    const topic = await alicePosts("Picnic");
    const board = await bobWeb.get(`${g()}/board`);
    await assertValidHtml(board.html, "the board with marks");
    assert.equal(marks(board.html).get("Picnic"), "New");
    assert.equal(marks((await aliceWeb.get(`${g()}/board`)).html).get("Picnic"), "", "not new to its author");
    await bobWeb.get(topic);
    server.clock.advance(1000);
    assert.equal(marks((await bobWeb.get(`${g()}/board`)).html).get("Picnic"), "", "seen");
    await aliceWeb.get(topic);
    await aliceWeb.post(`${topic}/comments`, { text: "Sunday?" });
    server.clock.advance(1000);
    assert.equal(marks((await bobWeb.get(`${g()}/board`)).html).get("Picnic"), "1 new comment");
    await aliceWeb.get(topic);
    await aliceWeb.post(`${topic}/comments`, { text: "Or Saturday?" });
    server.clock.advance(1000);
    await bobWeb.get(topic);
    await bobWeb.post(`${topic}/comments`, { text: "Saturday" });
    server.clock.advance(1000);
    assert.equal(
      marks((await bobWeb.get(`${g()}/board`)).html).get("Picnic"),
      "",
      "his visit saw both; his own comment is not news",
    );
    assert.equal(
      marks((await aliceWeb.get(`${g()}/board`)).html).get("Picnic"),
      "1 new comment",
      "Bob's reply is news to Alice",
    );
    await aliceWeb.get(topic);
    await aliceWeb.post(`${topic}/comments`, { text: "Done" });
    server.clock.advance(1000);
    await aliceWeb.get(topic);
    await aliceWeb.post(`${topic}/comments`, { text: "See you" });
    server.clock.advance(1000);
    assert.equal(marks((await bobWeb.get(`${g()}/board`)).html).get("Picnic"), "2 new comments");
    const ja = new WebClient(server.url, "ja");
    await ja.signIn(bob.email);
    assert.equal(marks((await ja.get(`${g()}/board`)).html).get("Picnic"), "新しいコメント 2 件");
    // The topic's own page says so too, links to the newest new one, and marks exactly those two.
    const opened = await bobWeb.get(topic);
    await assertValidHtml(opened.html, "a topic with new comments marked");
    assert.match(
      opened.html,
      /<p class="new-comments" id="new-comments"><a href="#comment-5">2 new comments<\/a><\/p>/,
    );
    const newOnes = [...opened.html.matchAll(/<li id="comment-(\d+)" class="comment[^"]*is-new"/g)].map((m) => m[1]);
    assert.deepEqual(newOnes, ["5", "4"], "Done and See you, newest first; not Bob's nor the ones he saw");
    assert.equal((opened.html.match(/<span class="new-mark">New<\/span>/g) ?? []).length, 2);
    server.clock.advance(1000);
    const again = await bobWeb.get(topic);
    assert.doesNotMatch(again.html, /new-comments|is-new|class="new-mark"/, "seen on the last visit");
  });

  it("marks tasks and files too, and 'mark all read' clears a group until something new comes", async () => {
    const task = await server.factories.task(team, alice, { title: "Book the hall" });
    const file = await addTestFile(server, team, alice, { fileName: "map.txt", bytes: Buffer.from("map") });
    server.clock.advance(1000);
    const tasks = await bobWeb.get(`${g()}/tasks`);
    await assertValidHtml(tasks.html, "the task list with marks");
    assert.match(tasks.html, /Book the hall<\/a> <span class="new-mark">New<\/span>/);
    const files = await bobWeb.get(`${g()}/files`);
    await assertValidHtml(files.html, "the files with marks");
    assert.match(files.html, /map\.txt<\/a> <span class="new-mark">New<\/span>/);
    await bobWeb.get(`${g()}/tasks/1:${task.id}`);
    server.clock.advance(1000);
    assert.doesNotMatch((await bobWeb.get(`${g()}/tasks`)).html, /Book the hall<\/a> <span class="new-mark">/);
    await aliceWeb.get(`${g()}/files/1:${file.id}`);
    await aliceWeb.post(`${g()}/files/1:${file.id}/comments`, { text: "v1" });
    server.clock.advance(1000);
    assert.match((await bobWeb.get(`${g()}/files`)).html, /map\.txt<\/a> <span class="new-mark">New<\/span>/);
    // Mark all read, from the files page: back to the files, nothing new anywhere in the group.
    const page = await bobWeb.get(`${g()}/files`);
    assert.match(page.html, /action="\/g\/1:\d+\/read-all"/);
    const marked = await bobWeb.post(`${g()}/read-all`, { back: "files" });
    assert.equal(marked.status, 303);
    assert.equal(marked.location, `${g()}/files`);
    server.clock.advance(1000);
    for (const area of ["board", "tasks", "files"]) {
      assert.doesNotMatch((await bobWeb.get(`${g()}/${area}`)).html, /class="new-mark"/, `${area}: all read`);
    }
    // What comes later is new again: a topic, and a comment on a file.
    await alicePosts("After the mark");
    await aliceWeb.get(`${g()}/files/1:${file.id}`);
    await aliceWeb.post(`${g()}/files/1:${file.id}/comments`, { text: "v2" });
    server.clock.advance(1000);
    assert.equal(marks((await bobWeb.get(`${g()}/board`)).html).get("After the mark"), "New");
    assert.match((await bobWeb.get(`${g()}/files`)).html, /map\.txt<\/a> <span class="new-mark">1 new comment<\/span>/);
    const filePage = await bobWeb.get(`${g()}/files/1:${file.id}`);
    assert.match(filePage.html, /<a href="#comment-2">1 new comment<\/a>/, "v2, after the mark; not v1");
    assert.match(filePage.html, /<li id="comment-2" class="comment is-new">/);
    assert.match(filePage.html, /<li id="comment-1" class="comment">/);
    // An unknown list to go back to goes to the board.
    await bobWeb.get(`${g()}/board`);
    assert.equal((await bobWeb.post(`${g()}/read-all`, { back: "elsewhere" })).location, `${g()}/board`);
  });

  it("refuses 'mark all read' to a non-member and of a group that does not exist, and writes nothing", async () => {
    const stranger = await server.factories.user({ name: "Stranger" });
    const web = new WebClient(server.url);
    await web.signIn(stranger.email);
    await web.get("/");
    assert.equal((await web.post(`${g()}/read-all`, {})).status, 403);
    await web.get("/");
    assert.equal((await web.post(`/g/1:999999/read-all`, {})).status, 404);
    const rows = await server.store.read((tx) => tx.itemVisits.seen(stranger.id, team.id, "BOARD", []));
    assert.equal(rows.groupReadAt, undefined);
  });
});
