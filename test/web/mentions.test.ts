// Mentions in the browser interface over real HTTP: mentions render as links to the member's page
// (and nothing else does), the notifications page lists and confirms mention notifications, and
// the suggestion list answers members of the caller's groups only.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { LIMITS } from "../../src/domain/limits.js";
import { setNotify } from "../../src/services/member/member-admin.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

/** The mention links of a page: their text and address. */
function mentionLinks(html: string): { text: string; href: string }[] {
  return [...html.matchAll(/<a class="mention" href="([^"]*)">([^<]*)<\/a>/g)].map((m) => ({
    href: m[1] ?? "",
    text: (m[2] ?? "").replace(/&quot;/g, '"'),
  }));
}

describeEachBackend("web mentions: links, the notifications page and member suggestions", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let olga: TestUser;
  let team: Group;
  let other: Group;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  const memberPath = async (group: Group, user: TestUser) => {
    const id = await server.store.read(async (tx) => (await tx.memberships.findJoined(group.id, user.id))?.id);
    return `/g/1:${group.id}/members/1:${id}`;
  };

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice", email: "alice@example.com" });
    bob = await server.factories.user({ name: "Bob", email: "bob@example.com" });
    carol = await server.factories.user({ name: "Carol Jones", email: "cj@example.com" });
    olga = await server.factories.user({ name: "Olga", email: "olga@example.com" });
    team = await server.factories.group([alice, bob, carol], { name: "Team" });
    other = await server.factories.group([olga], { name: "Other" });
    aliceWeb = new WebClient(server.url);
    await aliceWeb.signIn(alice.email);
    bobWeb = new WebClient(server.url);
    await bobWeb.signIn(bob.email);
  });
  after(() => server.close());

  it("links the members a topic and its comments name, escapes the rest, and notifies them", async () => {
    await setNotify(server, { groupId: team.id, email: bob.email, value: false });
    await aliceWeb.get(`/g/1:${team.id}/board/new`);
    const body = `Hi @Bob and @"Carol Jones" <b>&</b> @Olga @nobody mail@Bob.com`;
    const created = await aliceWeb.post(`/g/1:${team.id}/board/new`, { title: "Mentions", body });
    assert.equal(created.status, 303);
    server.clock.advance(1000);
    const page = await bobWeb.open(created.location!);
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "topic page with mentions");
    assert.deepEqual(mentionLinks(page.html), [
      { text: "@Bob", href: await memberPath(team, bob) },
      { text: '@"Carol Jones"', href: await memberPath(team, carol) },
    ]);
    assert.ok(page.html.includes("&lt;b&gt;&amp;&lt;/b&gt; @Olga @nobody mail@Bob.com"), "the rest is escaped text");
    const comment = await bobWeb.post(`${created.location}/comments`, { text: "thanks @alice" });
    assert.equal(comment.status, 303);
    const again = await bobWeb.open(created.location!);
    assert.deepEqual(
      mentionLinks(again.html).map((link) => link.text),
      ["@Bob", '@"Carol Jones"', "@alice"],
    );
    // Bob muted the group: the topic's notification is hidden, the mention is listed.
    const list = await bobWeb.get("/notifications");
    await assertValidHtml(list.html, "notifications with a mention");
    const rows = [...list.html.matchAll(/<li class="row unread mention">([\s\S]*?)<\/li>/g)];
    assert.equal(rows.length, 1, list.html);
    assert.match(rows[0]![1]!, /Alice mentioned you/);
    assert.ok(!list.html.includes('<li class="row unread">'), "nothing else of the muted group");
    // My groups counts the mention there too (and nothing else of the muted group).
    const groups = (await bobWeb.get("/")).html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    assert.match(groups, /Team 1 unconfirmed/);
    await setNotify(server, { groupId: team.id, email: bob.email, value: true });
  });

  it("confirms mention notifications from the list, one or all", async () => {
    const before = await bobWeb.get("/notifications");
    assert.match(before.html, /name="mention\[\]"/);
    const confirm = await bobWeb.post("/notifications/confirm", {
      "mention[]": /name="mention\[\]" value="([^"]+)"/.exec(before.html)![1]!,
      back: "/notifications",
    });
    assert.equal(confirm.status, 303);
    const after = await bobWeb.get("/notifications");
    assert.ok(!after.html.includes("row unread mention"), "the mention is confirmed");
    assert.match((await bobWeb.get("/notifications?show=all")).html, /<li class="row mention">/);
  });

  it("suggests members of the group by name or address, with the text to insert", async () => {
    await aliceWeb.get(`/g/1:${team.id}/board`);
    const answer = await aliceWeb.get(`/g/1:${team.id}/mentions?q=c`);
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get("content-type") ?? "", /^application\/json/);
    assert.deepEqual(JSON.parse(answer.html), {
      members: [{ name: "Carol Jones", insert: '@"Carol Jones"', href: await memberPath(team, carol) }],
    });
    const all = JSON.parse((await aliceWeb.get(`/g/1:${team.id}/mentions`)).html) as { members: { name: string }[] };
    assert.deepEqual(
      all.members.map((member) => member.name),
      ["Alice", "Bob", "Carol Jones"],
    );
    const none = JSON.parse((await aliceWeb.get(`/g/1:${team.id}/mentions?q=olga`)).html) as { members: unknown[] };
    assert.deepEqual(none.members, [], "not a member of this group");
    assert.equal((await aliceWeb.get(`/g/1:${other.id}/mentions?q=o`)).status, 403, "not the caller's group");
    const long = await aliceWeb.get(`/g/1:${team.id}/mentions?q=${"c".repeat(LIMITS.mentionQueryMaxChars + 1)}`);
    assert.equal(long.status, 200, "a longer query is cut to the limit, not refused");
    assert.deepEqual(JSON.parse(long.html), { members: [] });
    const many = await Promise.all(
      Array.from({ length: LIMITS.mentionSuggestions + 1 }, (_, i) =>
        server.factories.user({ name: `Zed ${i + 1}`, email: `zed${i + 1}@example.com` }),
      ),
    );
    const crowd = await server.factories.group([alice, ...many], { name: "Crowd" });
    const zeds = JSON.parse((await aliceWeb.get(`/g/1:${crowd.id}/mentions?q=zed`)).html) as { members: unknown[] };
    assert.equal(zeds.members.length, LIMITS.mentionSuggestions, "at most the limit");
    const form = await aliceWeb.get(`/g/1:${team.id}/board/new`);
    assert.match(form.html, new RegExp(`data-mention-source="/g/1:${team.id}/mentions"`));
  });

  it("a task written in the browser notifies the members its text names, and an edit only the newly named", async () => {
    const mentionRows = async (web: WebClient) =>
      [...(await web.get("/notifications")).html.matchAll(/<li class="row unread mention">([\s\S]*?)<\/li>/g)]
        .map((row) => row[1] ?? "")
        .filter((row) => row.includes("Mention task"));
    const fields = { title: "Mention task", zone: "UTC", priority: "B", status: "NOT_STARTED" };
    await aliceWeb.get(`/g/1:${team.id}/tasks/new`);
    const created = await aliceWeb.post(`/g/1:${team.id}/tasks/new`, { ...fields, body: "for @Bob" });
    assert.equal(created.status, 303);
    assert.equal((await mentionRows(bobWeb)).length, 1, "Bob is named");
    const carolWeb = new WebClient(server.url);
    await carolWeb.signIn(carol.email);
    assert.equal((await mentionRows(carolWeb)).length, 0);
    server.clock.advance(1000);
    const edited = await aliceWeb.post(`${created.location}/edit`, { ...fields, body: 'for @Bob and @"Carol Jones"' });
    assert.equal(edited.status, 303);
    assert.equal((await mentionRows(carolWeb)).length, 1, "Carol, newly named, is notified");
    assert.equal((await mentionRows(bobWeb)).length, 1, "Bob keeps one mention of the task");
    const form = await aliceWeb.get(`${created.location}/edit`);
    assert.match(
      form.html,
      /id="task-body"[^>]* data-mention-source="\/g\/1:\d+\/mentions"/,
      "the form suggests members",
    );
  });
});
