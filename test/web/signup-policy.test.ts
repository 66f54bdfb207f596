// The site's sign-up policy as the sign-up page and invitation links apply it, changed in the
// settings without a restart: closed (no new accounts at all; an invitation still lets an existing
// account join), invitation (the default without --allow-signup), open, and domains (an address of
// a listed domain passes; a subdomain, or a longer domain ending the same, does not). The server's
// option is the default until a setting is stored. Both engines, over real HTTP.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { COMMAND_LINE_ACTOR } from "../../src/domain/audit.js";
import { listAudit } from "../../src/services/audit/audit-log.js";
import { updateSiteSettings } from "../../src/services/settings/site-settings.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

/** A manager's invitation of `email` to a new group; the link relative to the server. */
async function invite(server: TestServer, manager: WebClient, email: string): Promise<{ link: string; g: string }> {
  const made = await manager.post("/groups/new", { name: `Group for ${email}`, summary: "" });
  const g = made.location?.replace(/\/members$/, "") ?? "";
  await manager.get(`${g}/members`);
  const answer = await manager.post(`${g}/members/invite`, { email });
  const link = /id="invitation-link">([^<]+)</.exec(answer.html)?.[1]?.replace(server.url, "");
  assert.ok(link, "the invitation's link is shown");
  return { link, g };
}

for (const allowSignup of [false, true]) {
  describeEachBackend(`web: the sign-up policy (--allow-signup ${allowSignup ? "given" : "not given"})`, (backend) => {
    let server: TestServer;
    let managerWeb: WebClient;
    const settings = () => ({
      store: server.store,
      blobs: server.blobs,
      clock: server.clock,
      config: { locale: "en" as const, timeZone: "UTC", allowSignup },
    });
    const setPolicy = (signupPolicy: string, signupDomains = "") =>
      updateSiteSettings(settings(), COMMAND_LINE_ACTOR, { signupPolicy, signupDomains });
    const userByEmail = (email: string) => server.store.read((tx) => tx.users.findByEmail(email));
    let n = 0;
    /** Tries the sign-up page with `email`; the answer. */
    async function signUp(email: string) {
      const web = new WebClient(server.url);
      await web.get("/signin");
      return web.post("/signup", { name: `Person ${++n}`, email, password: "a-good-password" });
    }

    before(async () => {
      server = await startTestServer(backend, { allowSignup });
      const manager = await server.factories.user({ name: "Maria" });
      managerWeb = new WebClient(server.url);
      await managerWeb.signIn(manager.email);
    });
    after(() => server.close());
    it(`without a stored setting the server's option decides: ${allowSignup ? "open" : "invitation only"}`, async () => {
      // First in this suite: nothing is stored yet.
      assert.deepEqual(await server.store.read((tx) => tx.siteSettings.all()), []);
      const signin = await new WebClient(server.url).get("/signin");
      assert.equal(/href="\/signup"/.test(signin.html), allowSignup);
      assert.equal((await new WebClient(server.url).get("/signup")).status, allowSignup ? 200 : 403);
    });

    it("closed: no sign-up page, and an invitation's link makes no account but lets an existing one join", async () => {
      await setPolicy("closed");
      assert.doesNotMatch((await new WebClient(server.url).get("/signin")).html, /href="\/signup"/);
      assert.equal((await new WebClient(server.url).get("/signup")).status, 403);
      assert.equal((await signUp("closed@example.com")).status, 403);
      const { link } = await invite(server, managerWeb, "newcomer@example.com");
      const web = new WebClient(server.url);
      const page = await web.get(link);
      assert.equal(page.status, 200);
      assert.match(page.html, /makes no new accounts/);
      assert.doesNotMatch(page.html, /name="password"/);
      await assertValidHtml(page.html, "invitation page, closed");
      await web.get("/signin");
      const tried = await web.post(link, { name: "New", password: "a-good-password" });
      assert.equal(tried.status, 403);
      assert.equal(await userByEmail("newcomer@example.com"), undefined);
      // An existing account joins by signing in and accepting.
      const existing = await server.factories.user({ name: "Old", email: "old@example.com" });
      const { g } = await invite(server, managerWeb, existing.email);
      const oldWeb = new WebClient(server.url);
      await oldWeb.signIn(existing.email);
      const home = await oldWeb.get("/");
      const accept = /action="(\/invitations\/1:\d+\/accept)"/.exec(home.html)?.[1];
      assert.ok(accept);
      assert.equal((await oldWeb.post(accept, {})).status, 303);
      assert.equal((await oldWeb.get(`${g}/board`)).status, 200);
      const refused = await listAudit(settings(), { actions: ["user.create"], outcome: "refused", limit: 5 });
      assert.deepEqual(
        refused.map((row) => [JSON.parse(row.details).via, JSON.parse(row.details).code, row.address]),
        [
          ["invitation", "SIGNUP_CLOSED", "127.0.0.1"],
          ["signup", "SIGNUP_CLOSED", "127.0.0.1"],
        ],
      );
    });

    it("invitation: no sign-up page, and an invitation's link makes an account", async () => {
      await setPolicy("invitation");
      assert.equal((await new WebClient(server.url).get("/signup")).status, 403);
      assert.equal((await signUp("walkin@example.com")).status, 403);
      const { link } = await invite(server, managerWeb, "invited@example.com");
      const web = new WebClient(server.url);
      await web.get(link);
      assert.equal((await web.post(link, { name: "Invited", password: "a-good-password" })).status, 303);
      assert.ok(await userByEmail("invited@example.com"));
    });

    it("open: anyone makes an account, with its done row", async () => {
      await setPolicy("open");
      assert.match((await new WebClient(server.url).get("/signin")).html, /href="\/signup"/);
      assert.equal((await signUp("anyone@example.net")).status, 303);
      const user = await userByEmail("anyone@example.net");
      assert.ok(user);
      const [row] = await listAudit(settings(), { actions: ["user.create"], limit: 1 });
      assert.deepEqual(
        [row?.outcome, row?.actor_user_id === null ? null : Number(row?.actor_user_id), row?.address, row?.target_id],
        ["done", user.id, "127.0.0.1", String(user.id)],
      );
      assert.deepEqual(JSON.parse(row!.details), { via: "signup" });
    });

    it("domains: a listed domain's address passes; a subdomain, a look-alike and another domain do not", async () => {
      await setPolicy("domains", "example.org, Team.Example");
      assert.match((await new WebClient(server.url).get("/signin")).html, /href="\/signup"/);
      assert.equal((await new WebClient(server.url).get("/signup")).status, 200);
      assert.equal((await signUp("ann@example.org")).status, 303);
      assert.equal((await signUp("Ben@TEAM.example")).status, 303);
      for (const email of ["cy@sub.example.org", "di@example.org.evil.test", "ed@example.com", "fi@xexample.org"]) {
        const answer = await signUp(email);
        assert.equal(answer.status, 400, email);
        assert.match(answer.html, /only with an address of example\.org, team\.example/);
        assert.equal(await userByEmail(email), undefined, email);
      }
      assert.ok(await userByEmail("ann@example.org"));
      assert.ok(await userByEmail("ben@team.example"));
    });
  });
}
