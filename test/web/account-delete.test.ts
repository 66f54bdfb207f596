// Deleting one's own account from the account page: proven by the password, the same deletion as
// the administrator's (content stays under "former member", the person's own data goes), the
// session ends and the browser lands on the sign-in page saying so. Refusals change nothing: a
// wrong password, a missing form token, the site's last administrator; and a session deletes only
// its own account.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { FORMER_MEMBER_NAME } from "../../src/domain/site-admin.js";
import { describeEachBackend } from "../support/backends.js";
import { PASSWORD, type TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml, textOfId } from "../support/web.js";

describeEachBackend("deleting one's own account", (backend) => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer(backend);
  });
  after(() => server.close());

  const audit = () => server.store.read((tx) => tx.auditEvents.list({ limit: 500 }));
  const stored = (id: number) => server.store.read((tx) => tx.users.findById(id));

  async function signedIn(name: string): Promise<{ user: TestUser; web: WebClient }> {
    const user = await server.factories.user({ name });
    const web = new WebClient(server.url);
    await web.signIn(user.email);
    return { user, web };
  }

  it("says what goes and what stays, and asks for the password, as valid HTML", async () => {
    const { web } = await signedIn("Reading Rae");
    const page = await web.get("/account");
    await assertValidHtml(page.html, "account page");
    const section = (/<section id="delete"[\s\S]*?<\/section>/.exec(page.html)?.[0] ?? "").replace(/&#39;/g, "'");
    assert.match(section, /Delete your account/);
    assert.match(section, /What goes: your name and its reading, your e-mail address/);
    assert.match(section, /What stays: .*topics, comments, tasks, events, files and chat messages/);
    assert.ok(section.includes(FORMER_MEMBER_NAME), section);
    assert.match(page.html, /<form method="post" action="\/account\/delete"/);
    assert.match(page.html, /id="account-delete-current" name="current" type="password" required/);
  });

  it("deletes the account with the right password: content stays, the session ends, no sign-in again", async () => {
    const { user, web } = await signedIn("Leaving Lou");
    const other = await server.factories.user({ name: "Staying Sam" });
    const group = await server.factories.group([other, user]);
    const topic = await server.factories.topic(group, user, { title: "Lou's topic" });
    await web.get("/account");
    const answer = await web.post("/account/delete", { current: PASSWORD });
    assert.equal(answer.status, 303);
    assert.equal(answer.location, "/signin?deleted=1");
    assert.equal(web.cookie("kairan_session"), undefined, "the session cookie is cleared");
    const landing = await web.get("/signin?deleted=1");
    assert.equal(landing.status, 200);
    assert.match(textOfId(landing.html, "main") ?? landing.html, /Your account has been deleted\./);
    // Signed out: the account page sends to sign in; the old address and password open nothing.
    const account = await web.get("/account");
    assert.equal(account.status, 303);
    assert.match(account.location ?? "", /^\/signin/);
    await web.get("/signin");
    const again = await web.post("/signin", { email: user.email, password: PASSWORD });
    assert.equal(again.status, 200);
    assert.match(again.html, /wrong|incorrect/i);
    // The same deletion as the administrator's.
    const gone = await stored(user.id);
    assert.equal(gone?.name, FORMER_MEMBER_NAME);
    assert.equal(await server.store.read((tx) => tx.users.findByEmail(user.email)), undefined);
    assert.equal(await server.store.read((tx) => tx.users.isDisabled(user.id)), true);
    const kept = await server.store.read((tx) => tx.topics.findById(topic.id));
    assert.ok(kept, "the topic stays");
    const row = (await audit()).find((r) => r.action === "user.delete" && r.target_label?.includes("Leaving Lou"));
    assert.ok(row, "one user.delete row");
    assert.equal(row.outcome, "done");
    assert.match(row.actor_label ?? "", /Leaving Lou/);
    assert.match(row.details, /"self":true/);
  });

  it("refuses a wrong password on the page, changing nothing, with a refused audit row", async () => {
    const { user, web } = await signedIn("Careful Cai");
    await web.get("/account");
    const answer = await web.post("/account/delete", { current: "not the password" });
    assert.equal(answer.status, 400);
    await assertValidHtml(answer.html, "refused deletion");
    assert.match(textOfId(answer.html, "delete-error") ?? "", /Neither a current code nor your password/);
    assert.match(answer.html, /aria-invalid="true"/);
    assert.equal((await stored(user.id))?.name, "Careful Cai");
    assert.equal((await web.get("/account")).status, 200, "still signed in");
    const row = (await audit()).find((r) => r.action === "user.delete" && r.target_label?.includes("Careful Cai"));
    assert.equal(row?.outcome, "refused");
    assert.match(row?.details ?? "", /TWO_FACTOR_PROOF_WRONG/);
    // Empty, too.
    await web.get("/account");
    assert.equal((await web.post("/account/delete", { current: "" })).status, 400);
    assert.equal((await stored(user.id))?.name, "Careful Cai");
  });

  it("refuses a form without its token or with another's token (CSRF), changing nothing", async () => {
    const { user, web } = await signedIn("Tokenless Tao");
    await web.get("/account");
    const missing = await web.post("/account/delete", { current: PASSWORD }, { csrf: null });
    assert.equal(missing.status, 403);
    const { web: otherWeb } = await signedIn("Other Oda");
    await otherWeb.get("/account");
    const foreign = await web.post("/account/delete", { current: PASSWORD, _csrf: otherWeb.csrf() });
    assert.equal(foreign.status, 403);
    assert.equal((await stored(user.id))?.name, "Tokenless Tao");
  });

  it("deletes only the session's own account: another's password or id changes nobody", async () => {
    const { user: victim } = await signedIn("Victim Vic");
    const { user: attacker, web } = await signedIn("Attacker Ada");
    await web.get("/account");
    // The victim's password (the factories give everyone the same one) proves only the attacker,
    // and the form has no field that names an account: a `user` field is not read.
    const answer = await web.post("/account/delete", {
      current: PASSWORD,
      user: `1:${victim.id}`,
      userId: String(victim.id),
    });
    assert.equal(answer.status, 303);
    assert.equal((await stored(victim.id))?.name, "Victim Vic");
    assert.equal((await stored(attacker.id))?.name, FORMER_MEMBER_NAME);
    // The deleted account's session opens nothing, not even the form again.
    const after = await web.post("/account/delete", { current: PASSWORD }, { csrf: "x" });
    assert.ok([303, 403].includes(after.status), String(after.status));
    assert.equal((await stored(victim.id))?.name, "Victim Vic");
  });

  it("refuses the site's last administrator, saying why; with a second administrator it works", async () => {
    const { user: admin, web } = await signedIn("Only Admin");
    await server.store.transaction((tx) => tx.users.update(admin.id, { siteAdmin: true }));
    const others = await server.store.read((tx) => tx.users.listActiveAdminIds());
    // Other tests' administrators (none here) would make this not the last one.
    assert.deepEqual(others, [admin.id]);
    await web.get("/account");
    const refused = await web.post("/account/delete", { current: PASSWORD });
    assert.equal(refused.status, 400);
    assert.match(
      (textOfId(refused.html, "delete-error") ?? "").replace(/&#39;/g, "'"),
      /You are the site's last administrator: make another person an administrator first/,
    );
    assert.equal((await stored(admin.id))?.name, "Only Admin");
    assert.equal(await server.store.read((tx) => tx.users.isSiteAdmin(admin.id)), true);
    const second = await server.factories.user({ name: "Second Admin" });
    await server.store.transaction((tx) => tx.users.update(second.id, { siteAdmin: true }));
    await web.get("/account");
    assert.equal((await web.post("/account/delete", { current: PASSWORD })).status, 303);
    assert.equal(await server.store.read((tx) => tx.users.isSiteAdmin(admin.id)), false);
    assert.deepEqual(await server.store.read((tx) => tx.users.listActiveAdminIds()), [second.id]);
  });

  it("works on the phone pages too, landing on the sign-in page", async () => {
    const { user, web } = await signedIn("Phone Pia");
    const page = await web.get("/m/account");
    assert.match(page.html, /action="\/m\/account\/delete"/);
    const answer = await web.post("/m/account/delete", { current: PASSWORD });
    assert.equal(answer.status, 303);
    assert.match(answer.location ?? "", /\/signin\?deleted=1$/);
    assert.equal((await stored(user.id))?.name, FORMER_MEMBER_NAME);
  });
});
