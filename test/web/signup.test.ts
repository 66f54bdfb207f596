// Accounts people make themselves, over real HTTP: the sign-up page and an invitation's link,
// each with sign-up allowed by the operator and without.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { INVITATION_LIFETIME_MS } from "../../src/domain/invitation.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
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

describeEachBackend("web: sign-up allowed", (backend) => {
  let server: TestServer;
  let manager: TestUser;
  let managerWeb: WebClient;

  before(async () => {
    server = await startTestServer(backend, { allowSignup: true });
    manager = await server.factories.user({ name: "Maria" });
    managerWeb = new WebClient(server.url);
    await managerWeb.signIn(manager.email);
  });
  after(() => server.close());

  const userByEmail = (email: string) => server.store.read((tx) => tx.users.findByEmail(email));

  it("offers sign-up on the sign-in page and makes an account that is signed in at once", async () => {
    const web = new WebClient(server.url);
    const signin = await web.get("/signin");
    assert.match(signin.html, /href="\/signup"/);
    const form = await web.get("/signup");
    assert.equal(form.status, 200);
    await assertValidHtml(form.html, "sign-up page");
    const made = await web.post("/signup", { name: " Nao ", email: "Nao@Example.com", password: "12345678" });
    assert.equal(made.status, 303);
    assert.equal(made.location, "/");
    const user = await userByEmail("nao@example.com");
    assert.equal(user?.name, "Nao");
    const home = await web.get("/");
    assert.equal(home.status, 200);
    assert.match(home.html, /Signed in as Nao/);
    // The new account signs in with its password too.
    const again = new WebClient(server.url);
    await again.signIn("nao@example.com", "12345678");
  });

  it("refuses a short password, a long name, a taken address and a bad one, making nothing", async () => {
    const web = new WebClient(server.url);
    await web.get("/signup");
    const tries: [Record<string, string>, RegExp][] = [
      [{ name: "Ken", email: "ken@example.com", password: "1234567" }, /at least 8 characters/],
      [{ name: "Ken", email: "ken@example.com", password: "x".repeat(1025) }, /password is longer than 1024/],
      [{ name: "K".repeat(101), email: "ken@example.com", password: "12345678" }, /name is longer than 100/],
      [{ name: " ", email: "ken@example.com", password: "12345678" }, /name is missing/],
      [{ name: "Ken", email: "ken@", password: "12345678" }, /is not an e-mail address/],
      [{ name: "Ken", email: manager.email, password: "12345678" }, /exists already/],
    ];
    for (const [fields, message] of tries) {
      const answer = await web.post("/signup", fields, { csrf: web.csrf() });
      assert.equal(answer.status, 400, JSON.stringify(fields).slice(0, 80));
      assert.match(answer.html, message);
      await assertValidHtml(answer.html, "sign-up page with an error");
    }
    assert.equal(await userByEmail("ken@example.com"), undefined);
    // Exactly at the limits: accepted.
    const ok = await web.post(
      "/signup",
      { name: "K".repeat(100), email: "ken@example.com", password: "x".repeat(1024) },
      { csrf: web.csrf() },
    );
    assert.equal(ok.status, 303);
  });

  it("refuses a sign-up form without the page's token", async () => {
    const web = new WebClient(server.url);
    const answer = await web.post("/signup", {
      name: "Eve",
      email: "eve@example.com",
      password: "12345678",
      _csrf: "x",
    });
    assert.equal(answer.status, 403);
    assert.equal(await userByEmail("eve@example.com"), undefined);
  });

  it("lets an invitation's link make an account for the invited address and join the group", async () => {
    const { link, g } = await invite(server, managerWeb, "lena@example.com");
    const web = new WebClient(server.url);
    const page = await web.get(link);
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "invitation link page");
    assert.match(page.html, /lena@example\.com is invited to join Group for lena@example\.com/);
    const short = await web.post(link, { name: "Lena", password: "short" });
    assert.equal(short.status, 400);
    assert.match(short.html, /at least 8 characters/);
    const joined = await web.post(link, { name: "Lena", password: "lena-pass-1" }, { csrf: web.csrf() });
    assert.equal(joined.status, 303);
    assert.equal(joined.location, `${g}/board`);
    const lena = await userByEmail("lena@example.com");
    assert.ok(lena);
    const groupId = Number(g.replace("/g/1:", ""));
    assert.equal((await server.store.read((tx) => tx.memberships.findJoined(groupId, lena.id)))?.manager, false);
    assert.equal((await web.get(`${g}/board`)).status, 200, "signed in and a member");
    // The link is used up.
    assert.equal((await new WebClient(server.url).get(link)).status, 404);
  });

  it("refuses a wrong secret, another invitation's id and an expired link", async () => {
    const { link } = await invite(server, managerWeb, "omar@example.com");
    const web = new WebClient(server.url);
    const wrong = link.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    const refused = await web.get(wrong);
    assert.equal(refused.status, 404);
    assert.match(refused.html, /does not exist or has been used or withdrawn/);
    assert.equal((await web.get(link.replace(/1:\d+/, "1:999999"))).status, 404);
    assert.equal((await web.get(link.replace(/\/[^/]+$/, "/"))).status, 404);
    assert.equal((await web.get(`${link}x`)).status, 404);
    server.clock.advance(INVITATION_LIFETIME_MS + 1);
    try {
      const expired = await web.get(link);
      assert.equal(expired.status, 400);
      assert.match(expired.html, /has expired/);
      await web.get("/signin");
      const post = await web.post(link, { name: "Omar", password: "omar-pass-1" }, { csrf: web.csrf() });
      assert.equal(post.status, 400);
      assert.equal(await userByEmail("omar@example.com"), undefined);
    } finally {
      server.clock.advance(-(INVITATION_LIFETIME_MS + 1));
    }
  });

  it("sends the holder of an address with an account to sign in, and makes no second account", async () => {
    const existing = await server.factories.user({ name: "Pia" });
    const { link } = await invite(server, managerWeb, existing.email);
    const web = new WebClient(server.url);
    const page = await web.get(link);
    assert.match(page.html, /This address has an account\. Sign in with it to accept the invitation/);
    assert.doesNotMatch(page.html, /name="password"/);
    await web.get("/signin"); // a form token, as a hand-made post would have
    const post = await web.post(link, { name: "Pia 2", password: "pia-pass-12" });
    assert.equal(post.status, 400);
    assert.match(post.html, /This address has an account\. Sign in/);
    assert.equal((await server.store.read((tx) => tx.users.list())).filter((u) => u.name === "Pia 2").length, 0);
    await web.signIn(existing.email);
    assert.match((await web.get("/")).html, /Invitations/);
    assert.match((await web.get(link)).html, /Accept and join/);
  });
});

describeEachBackend("web: sign-up not allowed (the default)", (backend) => {
  let server: TestServer;
  let managerWeb: WebClient;

  before(async () => {
    server = await startTestServer(backend);
    const manager = await server.factories.user({ name: "Maria" });
    managerWeb = new WebClient(server.url);
    await managerWeb.signIn(manager.email);
  });
  after(() => server.close());

  it("has no sign-up page and refuses its form", async () => {
    const web = new WebClient(server.url);
    assert.doesNotMatch((await web.get("/signin")).html, /href="\/signup"/);
    const page = await web.get("/signup");
    assert.equal(page.status, 403);
    assert.match(page.html, /does not let people make their own accounts/);
    await web.get("/signin");
    const post = await web.post("/signup", { name: "Eve", email: "eve@example.com", password: "12345678" });
    assert.equal(post.status, 403);
    assert.equal(await server.store.read((tx) => tx.users.findByEmail("eve@example.com")), undefined);
  });

  it("lets an invitation's holder without an account make one all the same: the invitation is the permission", async () => {
    const { link, g } = await invite(server, managerWeb, "quinn@example.com");
    const web = new WebClient(server.url);
    const page = await web.get(link);
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "invitation link page, sign-up closed");
    assert.match(page.html, /name="password"/);
    const post = await web.post(link, { name: "Quinn", password: "quinn-pass-1" });
    assert.equal(post.status, 303);
    assert.equal(post.location, `${g}/board`);
    assert.equal((await server.store.read((tx) => tx.users.findByEmail("quinn@example.com")))?.name, "Quinn");
    // A wrong secret makes nothing, sign-up closed or not.
    const wrong = link.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    await web.get("/signin");
    assert.equal((await web.post(wrong, { name: "Rex", password: "rex-pass-12" })).status, 404);
  });
});
