import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/\s+/g, " ");
}

/** The rows of a notification list: title, whether unread, and the row's text. */
function rows(html: string): { title: string; unread: boolean; text: string }[] {
  return [...html.matchAll(/<li class="(row(?: unread)?)">([\s\S]*?)<\/li>/g)].map((m) => ({
    title: /class="row-title" href="[^"]*">([^<]*)</.exec(m[2] ?? "")?.[1] ?? "",
    unread: m[1] === "row unread",
    text: text(m[2] ?? ""),
  }));
}

describeEachBackend("web notifications and like notifications", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let team: Group;
  let quiet: Group;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    team = await server.factories.group([alice, bob], { name: "Team" });
    quiet = await server.factories.group([alice, bob], { name: "Quiet" });
    aliceWeb = new WebClient(server.url);
    await aliceWeb.signIn(alice.email);
    bobWeb = new WebClient(server.url);
    await bobWeb.signIn(bob.email);
  });
  after(() => server.close());

  /** Bob posts a topic through the form; returns its page path. */
  async function bobPosts(group: Group, title: string): Promise<string> {
    await bobWeb.get(`/g/1:${group.id}/board/new`);
    const answer = await bobWeb.post(`/g/1:${group.id}/board/new`, { title, body: "text" });
    assert.equal(answer.status, 303);
    server.clock.advance(1000);
    return answer.location!;
  }

  it("shows what others did, with unconfirmed counts on my groups, and confirms one", async () => {
    const topic = await bobPosts(team, "Quarterly plan");
    await bobWeb.get(topic);
    await bobWeb.post(`${topic}/comments`, { text: "first thoughts" });
    server.clock.advance(1000);
    const groups = await aliceWeb.get("/");
    assert.match(text(groups.html), /Team 1 unconfirmed/);
    await assertValidHtml(groups.html, "my groups with counts");
    const page = await aliceWeb.get("/notifications");
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "notifications");
    const listed = rows(page.html);
    assert.equal(listed.length, 1);
    assert.equal(listed[0]!.title, "Quarterly plan");
    assert.ok(listed[0]!.unread);
    assert.match(listed[0]!.text, /Team Board Bob commented .* New comments: 1/);
    assert.ok(page.html.includes(`href="${topic}#comment-1"`), "leads to the comment that caused it");
    const confirmed = await aliceWeb.post("/notifications/confirm", {
      id: `GROUP,1:${team.id},BOARD,${topic.split("/").pop()}`,
      back: "/notifications",
    });
    assert.equal(confirmed.status, 303);
    assert.equal(confirmed.location, "/notifications");
    assert.equal(rows((await aliceWeb.get("/notifications")).html).length, 0, "read ones leave the unread list");
    const all = rows((await aliceWeb.get("/notifications?show=all")).html);
    assert.equal(all.length, 1);
    assert.equal(all[0]!.unread, false);
    assert.match(all[0]!.text, /read/);
    assert.doesNotMatch(text((await aliceWeb.get("/")).html), /unconfirmed/);
    // The API sees the same confirmation.
    const feed = await request(`${server.url}/api/notification/V2?unconfirmed=true`, { token: alice.token });
    assert.doesNotMatch(feed.text, /<entry>/);
  });

  it("confirms every notification shown at once, and filters by group", async () => {
    await bobPosts(team, "One");
    await bobPosts(team, "Two");
    await bobPosts(quiet, "Three");
    const teamOnly = await aliceWeb.get(`/notifications?group=1:${team.id}`);
    assert.deepEqual(
      rows(teamOnly.html).map((r) => r.title),
      ["Two", "One"],
    );
    assert.match(text(teamOnly.html), /Only Team/);
    await assertValidHtml(teamOnly.html, "group filter");
    const form =
      /<form method="post" action="\/notifications\/confirm" class="inline" id="confirm-all">([\s\S]*?)<\/form>/.exec(
        teamOnly.html,
      )?.[1] ?? "";
    const ids = [...form.matchAll(/name="id\[\]" value="([^"]*)"/g)].map((m) => m[1]!);
    assert.equal(ids.length, 2);
    const body = new URLSearchParams([
      ["_csrf", aliceWeb.csrf()],
      ["back", `/notifications?group=1:${team.id}`],
      ...ids.map((id) => ["id[]", id] as [string, string]),
    ]);
    const answer = await fetch(`${server.url}/notifications/confirm`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: `kairan_session=${aliceWeb.cookie("kairan_session")}`,
      },
      body: body.toString(),
    });
    assert.equal(answer.status, 303);
    assert.equal(answer.headers.get("location"), `/notifications?group=1:${team.id}`);
    assert.deepEqual(
      rows((await aliceWeb.get("/notifications")).html).map((r) => r.title),
      ["Three"],
      "only the other group's is left",
    );
    assert.equal((await aliceWeb.get(`/notifications?group=1:999999`)).status, 404);
    assert.equal((await aliceWeb.get(`/notifications?group=junk`)).status, 404);
  });

  it("hides groups set to 'do not notify', in the list and the counts", async () => {
    await aliceWeb.get("/settings");
    await aliceWeb.post("/settings/notify", { group: `1:${quiet.id}`, notify: "false" });
    await bobPosts(quiet, "Four");
    assert.deepEqual(rows((await aliceWeb.get("/notifications")).html), []);
    assert.doesNotMatch(text((await aliceWeb.get("/")).html), /Quiet .*unconfirmed/);
    await aliceWeb.get("/settings");
    await aliceWeb.post("/settings/notify", { group: `1:${quiet.id}`, notify: "true" });
    assert.deepEqual(
      rows((await aliceWeb.get("/notifications")).html).map((r) => r.title),
      ["Four", "Three"],
    );
  });

  it("tells people who liked their posts, and confirms like notifications", async () => {
    await aliceWeb.get(`/g/1:${team.id}/board/new`);
    const topic = (await aliceWeb.post(`/g/1:${team.id}/board/new`, { title: "Liked topic" })).location!;
    await aliceWeb.get(topic);
    await aliceWeb.post(`${topic}/comments`, { text: "a liked comment" });
    await bobWeb.get(topic);
    await bobWeb.post(`${topic}/like`, { on: "true" });
    await bobWeb.get(topic);
    await bobWeb.post(`${topic}/comments/1/like`, { on: "true" });
    const page = await aliceWeb.get("/notifications/likes");
    await assertValidHtml(page.html, "like notifications");
    const listed = rows(page.html);
    assert.deepEqual(
      listed.map((r) => r.title),
      ["Comment on Liked topic", "Liked topic"],
    );
    assert.match(listed[0]!.text, /Team Liked by Bob .* a liked comment/);
    assert.ok(page.html.includes(`href="${topic}#comment-1"`));
    await aliceWeb.post("/notifications/likes/confirm", {
      id: `GROUP,1:${team.id},BOARD,${topic.split("/").pop()}`,
      back: "/notifications/likes",
    });
    assert.deepEqual(
      rows((await aliceWeb.get("/notifications/likes")).html).map((r) => r.title),
      ["Comment on Liked topic"],
    );
    const all = rows((await aliceWeb.get("/notifications/likes?show=all")).html);
    assert.deepEqual(
      all.map((r) => [r.title, r.unread]),
      [
        ["Comment on Liked topic", true],
        ["Liked topic", false],
      ],
    );
  });

  it("needs the form's token to confirm, and is valid in both languages on both variants", async () => {
    const before = rows((await aliceWeb.get("/notifications/likes")).html).length;
    assert.equal((await aliceWeb.post("/notifications/likes/confirm", { id: "x" }, { csrf: "forged" })).status, 403);
    assert.equal(rows((await aliceWeb.get("/notifications/likes")).html).length, before);
    const ja = new WebClient(server.url, "ja");
    await ja.signIn(alice.email);
    for (const path of [
      "/notifications",
      "/notifications?show=all",
      "/notifications/likes",
      "/notifications/likes?show=all",
      "/m/notifications",
      "/m/notifications/likes",
    ]) {
      for (const client of [aliceWeb, ja]) {
        const page = await client.get(path);
        assert.equal(page.status, 200, path);
        if (backend === "sqlite") await assertValidHtml(page.html, path);
      }
    }
    const feeds = await aliceWeb.get("/notifications");
    assert.match(
      feeds.html,
      /<link rel="alternate" type="application\/atom\+xml" title="Notifications" href="http:\/\/127\.0\.0\.1:\d+\/api\/notification\/V2">/,
    );
    const likes = await aliceWeb.get("/notifications/likes");
    assert.match(likes.html, /href="http:\/\/127\.0\.0\.1:\d+\/api\/goodNotification\/V2"/);
  });
});
