// The site's administration in the browser, over real HTTP without JavaScript: the guard (signed
// out, an ordinary user, a refused form's audit row), the users' list and acts (create with a
// shown link, disable and enable, sign out everywhere, the administrator's role and the last
// administrator, deletion that keeps the content under "former member"), the settings and the
// audit log with its filters and downloads.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { FORMER_MEMBER_NAME } from "../../src/domain/site-admin.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describeEachBackend("web: the site's administration", (backend) => {
  let server: TestServer;
  let admin: TestUser;
  let member: TestUser;
  let adminWeb: WebClient;
  let memberWeb: WebClient;

  before(async () => {
    server = await startTestServer(backend);
    admin = await server.factories.user({ name: "Ada Admin" });
    member = await server.factories.user({ name: "Mem Ber" });
    await server.store.transaction((tx) => tx.users.update(admin.id, { siteAdmin: true }));
    adminWeb = new WebClient(server.url);
    memberWeb = new WebClient(server.url);
    await adminWeb.signIn(admin.email);
    await memberWeb.signIn(member.email);
  });
  after(() => server.close());

  const audit = () => server.store.read((tx) => tx.auditEvents.list({ limit: 500 }));
  const userPath = (id: number) => `/admin/users/1:${id}`;

  it("links an administrator's header to /admin, and nobody else's", async () => {
    assert.match((await adminWeb.get("/")).html, /href="\/admin"/);
    assert.doesNotMatch((await memberWeb.get("/")).html, /href="\/admin"/);
  });

  it("sends a signed-out browser to sign in and refuses an ordinary user with 403, logging refused forms", async () => {
    const anonymous = await new WebClient(server.url).get("/admin/users");
    assert.equal(anonymous.status, 303);
    assert.match(anonymous.location ?? "", /^\/signin\?next=%2Fadmin%2Fusers/);
    for (const path of ["/admin", "/admin/users", userPath(admin.id), "/admin/settings", "/admin/audit", "/m/admin"]) {
      const answer = await memberWeb.get(path);
      assert.equal(answer.status, 403, path);
      assert.doesNotMatch(answer.html, /Ada Admin/, `${path} shows nothing of the administration`);
    }
    await memberWeb.get("/settings");
    const refused = await memberWeb.post(`${userPath(member.id)}/grant-admin`, {});
    assert.equal(refused.status, 403);
    assert.equal(await server.store.read((tx) => tx.users.isSiteAdmin(member.id)), false);
    const row = (await audit()).find((r) => r.action === "user.admin.grant" && r.outcome === "refused");
    assert.ok(row, "the refused form left its row");
    assert.equal(row.actor_user_id, member.id);
    assert.ok(row.address, "with the client's address");
  });

  it("lists and searches the users, pages by id, and shows valid pages", async () => {
    const list = await adminWeb.get("/admin/users");
    assert.equal(list.status, 200);
    await assertValidHtml(list.html, "users");
    assert.match(list.html, />Ada Admin<\/a>/);
    const found = await adminWeb.get("/admin/users?q=mem%20b");
    assert.match(found.html, />Mem Ber<\/a>/);
    assert.doesNotMatch(found.html, />Ada Admin<\/a>/);
    const none = await adminWeb.get("/admin/users?q=%25");
    assert.match(none.html, /No user matches/, "a LIKE wildcard is searched for as itself");
    const later = await adminWeb.get(`/admin/users?after=${admin.id}`);
    assert.doesNotMatch(later.html, />Ada Admin<\/a>/);
    assert.match(later.html, />Mem Ber<\/a>/);
    await assertValidHtml((await adminWeb.get(userPath(member.id))).html, "one user");
    await assertValidHtml((await adminWeb.get("/admin")).html, "home");
  });

  it("creates an account without a password and shows the one-time link (no SMTP), with audit rows", async () => {
    await adminWeb.get("/admin/users/new");
    const answer = await adminWeb.post("/admin/users/new", { name: "New Person", email: "new.person@example.com" });
    assert.equal(answer.status, 200, answer.html.slice(0, 300));
    await assertValidHtml(answer.html, "link shown");
    assert.match(answer.html, /id="admin-reset-link" type="text" readonly value="http[^"]+\/password\/reset\/[^"]+"/);
    const created = await server.store.read((tx) => tx.users.findByEmail("new.person@example.com"));
    assert.ok(created);
    const rows = await audit();
    assert.ok(
      rows.some(
        (r) => r.action === "user.create" && r.target_id === String(created.id) && r.actor_user_id === admin.id,
      ),
    );
    const reset = rows.find((r) => r.action === "password.reset.request" && r.target_id === String(created.id));
    assert.ok(reset);
    assert.doesNotMatch(reset.details, /password\/reset/, "the link itself is never logged");
    await adminWeb.get("/admin/users/new");
    const taken = await adminWeb.post("/admin/users/new", {
      name: "Again",
      email: "new.person@example.com",
      password: "x",
    });
    assert.equal(taken.status, 400);
    assert.match(taken.html, /exists already/);
  });

  it("disables and enables an account, ending its sessions; signs out everywhere", async () => {
    await adminWeb.get(userPath(member.id));
    const disabled = await adminWeb.post(`${userPath(member.id)}/disable`, {});
    assert.equal(disabled.status, 303);
    assert.equal(await server.store.read((tx) => tx.users.isDisabled(member.id)), true);
    assert.equal((await memberWeb.get("/")).status, 303, "the member's session ended");
    await adminWeb.get(userPath(member.id));
    assert.equal((await adminWeb.post(`${userPath(member.id)}/enable`, {})).status, 303);
    await memberWeb.signIn(member.email);
    await adminWeb.get(userPath(member.id));
    assert.equal((await adminWeb.post(`${userPath(member.id)}/signout`, {})).status, 303);
    assert.equal((await memberWeb.get("/")).status, 303, "signed out everywhere");
    const actions = (await audit()).filter((r) => r.target_id === String(member.id)).map((r) => r.action);
    for (const action of ["user.disable", "user.enable", "sign-out.everywhere"])
      assert.ok(actions.includes(action), action);
  });

  it("never removes or disables the last administrator, and grants and removes the role otherwise", async () => {
    for (const act of ["revoke-admin", "disable", "delete"]) {
      await adminWeb.get(userPath(admin.id));
      const answer = await adminWeb.post(`${userPath(admin.id)}/${act}`, { confirm: "on" });
      assert.equal(answer.status, 400, act);
      assert.match(answer.html, /last administrator/);
      assert.equal(await server.store.read((tx) => tx.users.isSiteAdmin(admin.id)), true);
    }
    assert.equal(await server.store.read((tx) => tx.users.isDisabled(admin.id)), false);
    assert.ok((await audit()).some((r) => r.outcome === "refused" && r.details.includes("LAST_ADMIN")));
    await adminWeb.get(userPath(member.id));
    assert.equal((await adminWeb.post(`${userPath(member.id)}/grant-admin`, {})).status, 303);
    await memberWeb.signIn(member.email);
    assert.equal((await memberWeb.get("/admin")).status, 200, "the role applies at the next request");
    await adminWeb.get(userPath(member.id));
    assert.equal((await adminWeb.post(`${userPath(member.id)}/revoke-admin`, {})).status, 303);
    assert.equal((await memberWeb.get("/admin")).status, 403);
  });

  it("deletes an account: its content stays under 'former member', its address is free again", async () => {
    const leaving = await server.factories.user({ name: "Leaving Lee", email: "lee@example.com" });
    const group = await server.factories.group([admin, leaving]);
    const topic = await server.factories.topic(group, leaving, { title: "Lee's topic" });
    await adminWeb.get(userPath(leaving.id));
    const unconfirmed = await adminWeb.post(`${userPath(leaving.id)}/delete`, {});
    assert.equal(unconfirmed.status, 400, "deletion needs its confirmation");
    await adminWeb.get(userPath(leaving.id));
    assert.equal((await adminWeb.post(`${userPath(leaving.id)}/delete`, { confirm: "on" })).status, 303);
    const board = await adminWeb.get(`/g/1:${group.id}/board`);
    assert.match(board.html, /Lee&#39;s topic|Lee's topic/);
    const kept = await server.store.read((tx) => tx.topics.findById(topic.id));
    assert.ok(kept, "the topic stays");
    const gone = await server.store.read((tx) => tx.users.findById(leaving.id));
    assert.equal(gone?.name, FORMER_MEMBER_NAME);
    assert.equal(await server.store.read((tx) => tx.users.findByEmail("lee@example.com")), undefined);
    assert.equal(await server.store.read((tx) => tx.users.isDisabled(leaving.id)), true);
    assert.ok((await audit()).some((r) => r.action === "user.delete" && r.target_label?.includes("Leaving Lee")));
  });

  it("changes the settings with an audit row, and refuses a wrong value with the form again", async () => {
    const page = await adminWeb.get("/admin/settings");
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "settings");
    const fields = {
      siteName: "Team site",
      signupPolicy: "domains",
      signupDomains: "example.com\nexample.org",
      locale: "ja",
      timeZone: "Asia/Tokyo",
      twoFactorPolicy: "optional",
      auditRetentionDays: "90",
    };
    assert.equal((await adminWeb.post("/admin/settings", fields)).status, 303);
    const row = (await audit()).find((r) => r.action === "settings.change");
    assert.ok(row);
    assert.match(row.details, /"signupPolicy":\{"before":"invitation","after":"domains"\}/);
    await adminWeb.get("/admin/settings");
    const wrong = await adminWeb.post("/admin/settings", { ...fields, auditRetentionDays: "0" });
    assert.equal(wrong.status, 400);
    assert.match(wrong.html, /auditRetentionDays/);
    await adminWeb.get("/admin/settings");
    const sent = await adminWeb.post("/admin/settings/test-mail", { to: "check@example.com" });
    assert.equal(sent.status, 200);
    assert.match(sent.html, /A test message went to check@example.com/);
    assert.ok((await audit()).some((r) => r.action === "mail.send-test" && r.outcome === "done"));
  });

  it("registers an application (secret shown once), changes its level and mark, rotates its secret, revokes its tokens", async () => {
    await adminWeb.get("/admin/apps/new");
    const created = await adminWeb.post("/admin/apps/new", { name: "Reporter", level: "write", legacy: "on" });
    assert.equal(created.status, 200, created.html.slice(0, 300));
    await assertValidHtml(created.html, "new application");
    const key = /id="admin-app-key" type="text" readonly value="([^"]+)"/.exec(created.html)?.[1] ?? "";
    const secret = /id="admin-app-secret" type="text" readonly value="([^"]+)"/.exec(created.html)?.[1] ?? "";
    const stored = await server.store.read((tx) => tx.apps.findByConsumerKey(key));
    assert.ok(stored);
    assert.deepEqual([stored.accessLevel, stored.legacySigning, stored.consumerSecret], ["write", true, secret]);
    const list = await adminWeb.get("/admin/apps");
    await assertValidHtml(list.html, "applications");
    assert.match(list.html, />Reporter<\/a>/);
    assert.ok(!list.html.includes(secret), "the list never shows a secret");

    const page = `/admin/apps/${stored.id}`;
    await assertValidHtml((await adminWeb.get(page)).html, "one application");
    assert.equal((await adminWeb.post(`${page}/update`, { level: "read" })).status, 303);
    const updated = await server.store.read((tx) => tx.apps.findByConsumerKey(key));
    assert.deepEqual([updated?.accessLevel, updated?.legacySigning], ["read", false]);
    const change = (await audit()).find((r) => r.action === "application.update");
    assert.match(change?.details ?? "", /"accessLevel":\{"before":"write","after":"read"\}/);

    await adminWeb.get(page);
    const rotated = await adminWeb.post(`${page}/rotate`, {});
    const fresh = /id="admin-app-secret" type="text" readonly value="([^"]+)"/.exec(rotated.html)?.[1];
    assert.ok(fresh && fresh !== secret);
    assert.equal((await server.store.read((tx) => tx.apps.findByConsumerKey(key)))?.consumerSecret, fresh);
    assert.ok(
      (await audit()).every((r) => !r.details.includes(fresh) && !r.details.includes(secret)),
      "secrets never logged",
    );

    // The member's personal token was issued through an application of its own: revoked with it.
    const bearer = () =>
      fetch(`${server.url}/api/notification/V2`, { headers: { authorization: `Bearer ${member.token}` } });
    assert.equal((await bearer()).status, 200);
    await adminWeb.get(`/admin/apps/${member.consumer.id}`);
    const revoked = await adminWeb.post(`/admin/apps/${member.consumer.id}/revoke-tokens`, {});
    assert.equal(revoked.status, 303);
    assert.equal((await bearer()).status, 401);
    const row = (await audit()).find((r) => r.action === "application.tokens.revoke");
    assert.match(row?.details ?? "", /"revoked":1/);
  });

  it("shows the audit log newest first, filtered, paged by id, and downloads it as CSV and JSON Lines", async () => {
    const page = await adminWeb.get("/admin/audit");
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "audit");
    const all = await audit();
    const newest = all[0];
    assert.ok(newest);
    assert.ok(page.html.indexOf(newest.action) < page.html.lastIndexOf(all.at(-1)?.action ?? ""));
    const refused = await adminWeb.get("/admin/audit?outcome=refused");
    assert.doesNotMatch(refused.html, /<td>Done<\/td>/);
    assert.match(refused.html, /<td>Refused<\/td>/);
    const byPerson = await adminWeb.get(`/admin/audit?person=${encodeURIComponent(member.email)}`);
    assert.match(byPerson.html, /<td>user\.admin\.grant<\/td>/);
    assert.doesNotMatch(byPerson.html, /<td>settings\.change<\/td>/);
    const nobody = await adminWeb.get("/admin/audit?person=nobody%40example.com");
    assert.match(nobody.html, /No row matches/);
    const older = await adminWeb.get(`/admin/audit?before=${newest.id}`);
    assert.ok(!older.html.includes(`>${newest.id}<`));
    const csv = await adminWeb.get("/admin/audit/export?format=csv&action=settings.change");
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get("content-type") ?? "", /^text\/csv/);
    assert.match(csv.headers.get("content-disposition") ?? "", /attachment; filename="audit.csv"/);
    const lines = csv.html.trimEnd().split("\r\n");
    assert.equal(
      lines[0],
      "id,time,action,outcome,actor_user_id,actor,address,target_kind,target_id,target,group_id,details",
    );
    assert.equal(lines.length, 1 + all.filter((r) => r.action === "settings.change").length);
    const jsonl = await adminWeb.get("/admin/audit/export?format=jsonl");
    const parsed = jsonl.html
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: number; details: unknown });
    assert.equal(parsed.length, (await audit()).length);
    assert.equal(typeof parsed[0]?.details, "object");
    assert.equal((await memberWeb.get("/admin/audit/export?format=csv")).status, 403);
  });
});
