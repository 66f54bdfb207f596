// Groups run in the browser, over real HTTP without JavaScript: creating a group, renaming it,
// inviting, answering invitations, making managers, removing members, leaving.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { LIMITS } from "../../src/domain/limits.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { assertError, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

/** The invitation link a manager is shown, relative to the server. */
function linkIn(html: string, base: string): string {
  const match = /id="invitation-link">([^<]+)</.exec(html);
  assert.ok(match, "the page shows the invitation link");
  return (match[1] ?? "").replace(base, "");
}

describeEachBackend("web: groups, members and invitations", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let carolWeb: WebClient;
  let groupId: number;
  let g: string;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    carol = await server.factories.user({ name: "Carol" });
    aliceWeb = new WebClient(server.url);
    bobWeb = new WebClient(server.url);
    carolWeb = new WebClient(server.url);
    await aliceWeb.signIn(alice.email);
    await bobWeb.signIn(bob.email);
    await carolWeb.signIn(carol.email);
  });
  after(() => server.close());

  const groups = () => server.store.read((tx) => tx.groups.listAll());
  const joined = (userId: number) => server.store.read((tx) => tx.memberships.findJoined(groupId, userId));
  const memberIdOf = async (userId: number) => (await joined(userId))?.id ?? 0;

  it("lets any signed-in person create a group and makes them its manager", async () => {
    const form = await aliceWeb.get("/groups/new");
    assert.equal(form.status, 200);
    await assertValidHtml(form.html, "new group form");
    const before = (await groups()).length;
    const answer = await aliceWeb.post("/groups/new", { name: "  Garden club ", summary: "Tomatoes & <b>beans</b>" });
    assert.equal(answer.status, 303);
    const created = (await groups()).at(-1)!;
    assert.equal((await groups()).length, before + 1);
    assert.equal(created.name, "Garden club", "the name is trimmed");
    groupId = created.id;
    g = `/g/1:${groupId}`;
    assert.equal(answer.location, `${g}/members`);
    assert.equal((await joined(alice.id))?.manager, true);
    const home = await aliceWeb.get("/");
    assert.match(home.html, /Garden club/);
    assert.match(home.html, /Tomatoes &amp; &lt;b&gt;beans&lt;\/b&gt;/, "the description is escaped");
    const members = await aliceWeb.get(`${g}/members`);
    await assertValidHtml(members.html, "members page of a manager");
    assert.match(members.html, /id="invite-email"/, "a manager sees the invite form");
  });

  it("takes names and descriptions up to their limits and refuses one character more, changing nothing", async () => {
    const count = (await groups()).length;
    const longName = "名".repeat(LIMITS.groupNameMaxChars + 1);
    const refused = await aliceWeb.post("/groups/new", { name: longName, summary: "" });
    assert.equal(refused.status, 400);
    assert.match(refused.html, /The group&#39;s name is longer than 200 characters/);
    assert.match(refused.html, new RegExp(`value="${longName}"`), "what was typed is kept");
    assert.equal((await aliceWeb.post("/groups/new", { name: "   ", summary: "" })).status, 400);
    const longSummary = "x".repeat(LIMITS.groupSummaryMaxChars + 1);
    const tooLong = await aliceWeb.post(`${g}/edit`, { name: "Garden club", summary: longSummary });
    assert.equal(tooLong.status, 400);
    assert.match(tooLong.html, /description is longer than 20000 characters/);
    assert.equal((await groups()).length, count, "no group was made");
    assert.equal((await groups()).find((x) => x.id === groupId)?.summary, "Tomatoes & <b>beans</b>");

    // Exactly at the limits: accepted (emoji count as one character each).
    const atLimit = "😀".repeat(LIMITS.groupNameMaxChars);
    const saved = await aliceWeb.post(`${g}/edit`, {
      name: atLimit,
      summary: "y".repeat(LIMITS.groupSummaryMaxChars),
    });
    assert.equal(saved.status, 303);
    assert.equal(saved.location, `${g}/members?saved=1`);
    const group = (await groups()).find((x) => x.id === groupId)!;
    assert.equal(group.name, atLimit);
    assert.equal(group.summary.length, LIMITS.groupSummaryMaxChars);
    assert.equal((await aliceWeb.post(`${g}/edit`, { name: "Garden club", summary: "Vegetables" })).status, 303);
    const edit = await aliceWeb.get(`${g}/edit`);
    await assertValidHtml(edit.html, "edit group form");
    assert.match(edit.html, /value="Garden club"/);
  });

  it("invites an address with an account; the invitee joins from the home page and the members hear of it", async () => {
    const answer = await aliceWeb.post(`${g}/members/invite`, { email: ` ${bob.email.toUpperCase()} ` });
    assert.equal(answer.status, 200);
    await assertValidHtml(answer.html, "invitation link page");
    const link = linkIn(answer.html, server.url);
    assert.match(link, /^\/join\/1:\d+\/[A-Za-z0-9_-]{32}$/);
    assert.match(answer.html, /This address has an account/);

    const home = await bobWeb.get("/");
    await assertValidHtml(home.html, "home with an invitation");
    assert.match(home.html, /Invitations[\s\S]*Garden club/);
    assert.equal(await joined(bob.id), undefined, "an invitation is not a membership");
    // Bob cannot read the group yet.
    assert.equal((await bobWeb.get(`${g}/board`)).status, 403);
    const invitationId = Number(/\/invitations\/1:(\d+)\/accept/.exec(home.html)?.[1]);
    // Someone else cannot take Bob's invitation.
    assert.equal((await carolWeb.post(`/invitations/1:${invitationId}/accept`, {})).status, 404);
    const accepted = await bobWeb.post(`/invitations/1:${invitationId}/accept`, {});
    assert.equal(accepted.status, 303);
    assert.equal(accepted.location, `${g}/board`);
    assert.equal((await joined(bob.id))?.manager, false);
    assert.equal((await bobWeb.get(`${g}/board`)).status, 200);
    assert.doesNotMatch((await bobWeb.get("/")).html, /Invitations/, "the invitation is gone from the home page");
    const notifications = await aliceWeb.get("/notifications");
    assert.match(notifications.html, /Bob joined the group/);
  });

  it("refuses a second invitation, a member's address, a malformed address and a non-manager's invitation", async () => {
    assert.equal((await aliceWeb.post(`${g}/members/invite`, { email: carol.email })).status, 200);
    const twice = await aliceWeb.post(`${g}/members/invite`, { email: carol.email });
    assert.equal(twice.status, 400);
    assert.match(twice.html, /is invited already/);
    assert.match(twice.html, new RegExp(`value="${carol.email}"`));
    await assertValidHtml(twice.html, "members page with an invite error");
    const member = await aliceWeb.post(`${g}/members/invite`, { email: bob.email });
    assert.equal(member.status, 400);
    assert.match(member.html, /is a member of this group already/);
    assert.equal((await aliceWeb.post(`${g}/members/invite`, { email: "not an address" })).status, 400);
    assert.equal((await aliceWeb.post(`${g}/members/invite`, { email: `${"a".repeat(250)}@x.jp` })).status, 400);
    const byMember = await bobWeb.post(`${g}/members/invite`, { email: "dave@example.com" });
    assert.equal(byMember.status, 403);
    assert.match(byMember.html, /Only the group&#39;s managers may do this/);
    assert.equal((await bobWeb.get(`${g}/edit`)).status, 403);
    assert.equal((await bobWeb.post(`${g}/edit`, { name: "Mine now", summary: "" })).status, 403);
    assert.equal((await groups()).find((x) => x.id === groupId)?.name, "Garden club");
    // An outsider learns nothing of the group.
    const outsider = await carolWeb.post(`${g}/members/invite`, { email: "dave@example.com" });
    assert.equal(outsider.status, 403);
    assert.match(outsider.html, /You are not a member of this group/);
  });

  it("declines an invitation: it is gone, and its link with it", async () => {
    const home = await carolWeb.get("/");
    const invitationId = Number(/\/invitations\/1:(\d+)\/decline/.exec(home.html)?.[1]);
    assert.equal((await carolWeb.post(`/invitations/1:${invitationId}/decline`, {})).status, 303);
    assert.equal(await joined(carol.id), undefined);
    assert.equal(await server.store.read((tx) => tx.invitations.find(invitationId)), undefined);
    assert.equal((await carolWeb.post(`/invitations/1:${invitationId}/accept`, {})).status, 404);
  });

  it("makes and unmakes managers; the last manager stays one and cannot leave while others remain", async () => {
    const aliceMember = await memberIdOf(alice.id);
    const bobMember = await memberIdOf(bob.id);
    const unmakeSelf = await aliceWeb.post(`${g}/members/1:${aliceMember}/manager`, { manager: "false" });
    assert.equal(unmakeSelf.status, 400);
    assert.match(unmakeSelf.html, /last manager/);
    const leave = await aliceWeb.post(`${g}/leave`, {});
    assert.equal(leave.status, 400);
    assert.match(leave.html, /last manager; make another member a manager before you leave/);
    assert.equal((await aliceWeb.post(`${g}/members/1:${aliceMember}/remove`, {})).status, 400);
    assert.ok(await joined(alice.id), "still a member");

    assert.equal((await bobWeb.post(`${g}/members/1:${aliceMember}/manager`, { manager: "false" })).status, 403);
    const made = await aliceWeb.post(`${g}/members/1:${bobMember}/manager`, { manager: "true" });
    assert.equal(made.status, 303);
    assert.equal((await joined(bob.id))?.manager, true);
    const page = await aliceWeb.get(`${g}/members/1:${bobMember}`);
    await assertValidHtml(page.html, "member page of a manager");
    assert.match(page.html, /Remove as manager/);
    assert.equal((await aliceWeb.post(`${g}/members/1:${bobMember}/manager`, { manager: "false" })).status, 303);
    assert.equal((await joined(bob.id))?.manager, false);
  });

  it("removes a member, whose next API poll is refused rather than answered from the feed cache", async () => {
    const feed = `${server.url}/api/board/V2?group=1:${groupId}`;
    const first = await request(feed, { token: bob.token });
    assert.equal(first.status, 200);
    const etag = first.headers.get("etag") ?? "";
    assert.equal((await request(feed, { token: bob.token, headers: { "if-none-match": etag } })).status, 304);

    const removed = await aliceWeb.post(`${g}/members/1:${await memberIdOf(bob.id)}/remove`, {});
    assert.equal(removed.status, 303);
    assert.equal(await joined(bob.id), undefined);
    assertError(await request(feed, { token: bob.token, headers: { "if-none-match": etag } }), 403, "GROUP_NOT_JOINED");
    assertError(await request(feed, { token: bob.token }), 403, "GROUP_NOT_JOINED");
    assert.equal((await bobWeb.get(`${g}/board`)).status, 403);
    const groupsFeed = await request(`${server.url}/api/group/V2`, { token: bob.token });
    assert.doesNotMatch(groupsFeed.text, /Garden club/, "the removed member's groups feed no longer lists it");
  });

  it("withdraws an invitation and sends one again with a new link that replaces the old", async () => {
    const made = await aliceWeb.post(`${g}/members/invite`, { email: "dave@example.com" });
    const oldLink = linkIn(made.html, server.url);
    assert.match(made.html, /no account yet/);
    const memberId = Number(/\/join\/1:(\d+)\//.exec(oldLink)?.[1]);
    const invitationPage = await aliceWeb.get(`${g}/members/1:${memberId}`);
    await assertValidHtml(invitationPage.html, "an invitation's page");
    assert.match(invitationPage.html, /dave@example\.com/);
    // Its message went out just now: another may go ten minutes later (test/web/invitations-mail.test.ts).
    server.clock.advance(10 * 60 * 1000);
    const again = await aliceWeb.post(`${g}/members/1:${memberId}/resend`, {});
    assert.equal(again.status, 200);
    const newLink = linkIn(again.html, server.url);
    assert.notEqual(newLink, oldLink);
    const anonymous = new WebClient(server.url);
    assert.equal((await anonymous.get(oldLink)).status, 404, "the old link stopped working");
    assert.equal((await anonymous.get(newLink)).status, 200);
    assert.equal((await bobWeb.post(`${g}/members/1:${memberId}/remove`, {})).status, 403, "a former member");
    const withdrawn = await aliceWeb.post(`${g}/members/1:${memberId}/remove`, {});
    assert.equal(withdrawn.status, 303);
    assert.equal(withdrawn.location, `${g}/members?status=INVITE`);
    assert.equal((await anonymous.get(newLink)).status, 404);
  });

  it("lets the only member leave; the group stays, without members", async () => {
    assert.equal((await aliceWeb.post("/groups/new", { name: "Solo", summary: "" })).status, 303);
    const solo = (await groups()).at(-1)!;
    const left = await aliceWeb.post(`/g/1:${solo.id}/leave`, {});
    assert.equal(left.status, 303);
    assert.equal(left.location, "/?left=1");
    assert.match((await aliceWeb.get("/?left=1")).html, /You have left the group/);
    assert.equal(await server.store.read((tx) => tx.memberships.countMembers(solo.id, "JOIN")), 0);
  });

  it("lets a member leave by themselves; the others are told", async () => {
    await aliceWeb.post(`${g}/members/invite`, { email: carol.email });
    const home = await carolWeb.get("/");
    const invitationId = Number(/\/invitations\/1:(\d+)\/accept/.exec(home.html)?.[1]);
    assert.equal((await carolWeb.post(`/invitations/1:${invitationId}/accept`, {})).status, 303);
    const members = await carolWeb.get(`${g}/members`);
    assert.doesNotMatch(members.html, /id="invite-email"/, "a member sees no invite form");
    assert.equal((await carolWeb.post(`${g}/leave`, {})).status, 303);
    assert.equal(await joined(carol.id), undefined);
    assert.match((await aliceWeb.get("/notifications")).html, /Carol left the group/);
  });

  it("refuses every form without the session's token", async () => {
    for (const path of ["/groups/new", `${g}/edit`, `${g}/leave`, `${g}/members/invite`]) {
      const answer = await aliceWeb.post(path, { name: "x", email: "x@example.com" }, { csrf: null });
      assert.equal(answer.status, 403, path);
    }
    assert.equal((await groups()).filter((x) => x.name === "x").length, 0);
  });

  it("speaks Japanese to a Japanese browser, refusals included", async () => {
    const ja = new WebClient(server.url, "ja");
    await ja.signIn(alice.email);
    const form = await ja.get("/groups/new");
    assert.match(form.html, /グループを作成/);
    await assertValidHtml(form.html, "new group form in Japanese");
    const refused = await ja.post("/groups/new", { name: "", summary: "" });
    assert.equal(refused.status, 400);
    assert.match(refused.html, /グループ名を入力してください。/);
    const members = await ja.get(`${g}/members`);
    assert.match(members.html, /メンバーを招待/);
    await assertValidHtml(members.html, "members page in Japanese");
  });
});
