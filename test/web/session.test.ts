import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, before, it } from "node:test";
import { buildApp } from "../../src/app.js";
import { openLocalBlobStore } from "../../src/blobs/local.js";
import { loadConfig } from "../../src/config/config.js";
import { SESSION_LIFETIME_MS } from "../../src/domain/session.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describeEachBackend("web sign-in and sessions", (backend) => {
  let server: TestServer;
  let alice: TestUser;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
  });
  after(() => server.close());

  it("sends a signed-out visitor to the sign-in page and back where they were going", async () => {
    const web = new WebClient(server.url);
    const answer = await web.get("/favorites?page=2");
    assert.equal(answer.status, 303);
    assert.equal(answer.location, "/signin?next=%2Ffavorites%3Fpage%3D2");
    const phone = await web.get("/m/settings");
    assert.equal(phone.location, "/m/signin?next=%2Fsettings", "the phone pages sign in on the phone page");
    const form = await web.get(answer.location!);
    assert.equal(form.status, 200);
    await assertValidHtml(form.html, "sign-in page");
    assert.match(form.html, /<input type="hidden" name="next" value="\/favorites\?page=2">/);
    const signedIn = await web.post("/signin", {
      email: alice.email.toUpperCase(),
      password: "password",
      next: "/favorites?page=2",
    });
    assert.equal(signedIn.status, 303);
    assert.equal(signedIn.location, "/favorites?page=2");
    assert.equal((await web.get("/favorites")).status, 200);
  });

  it("sets an HttpOnly, SameSite=Lax session cookie, not Secure over http", async () => {
    const web = new WebClient(server.url);
    await web.get("/signin");
    const answer = await web.post("/signin", { email: alice.email, password: "password" });
    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith("kairan_session="));
    assert.ok(cookie, "a session cookie");
    assert.match(cookie, /; HttpOnly/i);
    assert.match(cookie, /; SameSite=Lax/i);
    assert.match(cookie, /; Path=\//i);
    assert.doesNotMatch(cookie, /; Secure/i);
    assert.match(cookie, new RegExp(`Max-Age=${SESSION_LIFETIME_MS / 1000}`));
  });

  it("refuses a wrong password with the form again, and no session", async () => {
    const web = new WebClient(server.url);
    await web.get("/signin");
    const answer = await web.post("/signin", { email: alice.email, password: "wrong" });
    assert.equal(answer.status, 200);
    assert.match(answer.html, /The e-mail address or the password is wrong\./);
    assert.equal(web.cookie("kairan_session"), undefined);
    await assertValidHtml(answer.html, "sign-in error");
    assert.equal((await web.get("/")).status, 303, "still signed out");
  });

  it("refuses a sign-in form that no page of ours served (login CSRF)", async () => {
    const web = new WebClient(server.url);
    const noCookie = await web.post("/signin", { email: alice.email, password: "password" }, { csrf: "forged" });
    assert.equal(noCookie.status, 403);
    assert.match(noCookie.html, /This form has expired/);
    await web.get("/signin");
    const wrongToken = await web.post("/signin", { email: alice.email, password: "password" }, { csrf: "forged" });
    assert.equal(wrongToken.status, 403);
    assert.equal(web.cookie("kairan_session"), undefined);
  });

  it("never redirects off the site after sign-in", async () => {
    for (const next of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"]) {
      const web = new WebClient(server.url);
      await web.get("/signin");
      const answer = await web.post("/signin", { email: alice.email, password: "password", next });
      assert.equal(answer.location, "/", next);
    }
  });

  it("refuses every form without the session's token, and changes nothing", async () => {
    const web = new WebClient(server.url);
    await web.signIn(alice.email);
    const before = await server.store.read((tx) => tx.tokens.listLiveOfUser(alice.id));
    const app = alice.consumer.id;
    for (const csrf of [null, "", "x".repeat(32)]) {
      const answer = await web.post("/settings/tokens", { app: String(app), label: "sneaky" }, { csrf });
      assert.equal(answer.status, 403, `csrf ${String(csrf)}`);
      assert.match(answer.html, /This form has expired/);
      await assertValidHtml(answer.html, "403 page");
    }
    assert.deepEqual(await server.store.read((tx) => tx.tokens.listLiveOfUser(alice.id)), before);
    const other = new WebClient(server.url);
    await other.signIn(alice.email);
    const crossed = await web.post("/settings/tokens", { app: String(app), label: "crossed" }, { csrf: other.csrf() });
    assert.equal(crossed.status, 403, "another session's token does not work");
  });

  it("keeps sessions in the database: another server instance over the same database knows them", async () => {
    const web = new WebClient(server.url);
    await web.signIn(alice.email);
    const config = { ...loadConfig({ port: "0", data: server.dataDir, logLevel: "silent", noDemo: true }, {}) };
    const second = buildApp({
      config,
      store: server.store,
      blobs: openLocalBlobStore(server.dataDir),
      clock: server.clock,
    });
    await second.listen({ port: 0, host: "127.0.0.1" });
    try {
      const other = new WebClient(`http://127.0.0.1:${(second.server.address() as AddressInfo).port}`);
      const cookie = web.cookie("kairan_session")!;
      const answer = await fetch(`${other.base}/settings`, {
        headers: { cookie: `kairan_session=${cookie}` },
        redirect: "manual",
      });
      assert.equal(answer.status, 200);
      assert.match(await answer.text(), /Alice さんでログイン中/, "no Accept-Language: the server locale (ja)");
    } finally {
      await second.close();
    }
  });

  it("signs out: the session ends on the server, not only in the browser", async () => {
    const web = new WebClient(server.url);
    await web.signIn(alice.email);
    const token = web.cookie("kairan_session")!;
    const answer = await web.post("/signout");
    assert.equal(answer.status, 303);
    assert.equal(answer.location, "/signin?signed-out=1");
    assert.equal(web.cookie("kairan_session"), undefined, "the cookie is cleared");
    const replay = await fetch(`${server.url}/settings`, {
      headers: { cookie: `kairan_session=${token}` },
      redirect: "manual",
    });
    assert.equal(replay.status, 303, "the old cookie no longer signs anyone in");
    const notice = await web.get(answer.location!);
    assert.match(notice.html, /You have signed out\./);
  });

  it("ends a session after 30 days without use, and extends one in daily use", async () => {
    const web = new WebClient(server.url);
    await web.signIn(alice.email);
    server.clock.advance(SESSION_LIFETIME_MS - 60_000);
    assert.equal((await web.get("/")).status, 200, "used just before it ends: extended");
    server.clock.advance(SESSION_LIFETIME_MS - 60_000);
    assert.equal((await web.get("/")).status, 200, "still alive a lifetime after sign-in, thanks to the use");
    server.clock.advance(SESSION_LIFETIME_MS + 1);
    assert.equal((await web.get("/")).status, 303, "unused for 30 days: gone");
    const post = await web.post("/signout", {}, { csrf: "whatever" });
    assert.equal(post.status, 403, "a form from an ended session");
    assert.match(post.html, /Your session has ended/);
  });
});

describeEachBackend("web sessions behind https", (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(backend, { publicUrl: "https://kairan.example" });
  });
  after(() => server.close());

  it("marks the cookies Secure when the public URL is https", async () => {
    const alice = await server.factories.user();
    const form = await fetch(`${server.url}/signin`);
    const signinCookie = form.headers.getSetCookie().find((line) => line.startsWith("kairan_signin="));
    assert.match(signinCookie ?? "", /; Secure/i);
    const token = /kairan_signin=([^;]+)/.exec(signinCookie ?? "")?.[1] ?? "";
    const answer = await fetch(`${server.url}/signin`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: `kairan_signin=${token}` },
      body: new URLSearchParams({ _csrf: token, email: alice.email, password: "password" }).toString(),
    });
    assert.equal(answer.status, 303);
    const session = answer.headers.getSetCookie().find((line) => line.startsWith("kairan_session=")) ?? "";
    assert.match(session, /; Secure/i);
    assert.match(session, /; HttpOnly/i);
  });
});

describeEachBackend("web sign-in throttling", (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(backend, { limits: { loginLimitAccount: "2" } });
  });
  after(() => server.close());

  it("refuses sign-in after too many failures for the account from this address, as the OAuth page does, saying so", async () => {
    const carol = await server.factories.user({ name: "Carol" });
    const web = new WebClient(server.url);
    await web.get("/signin");
    for (let i = 0; i < 2; i++)
      assert.equal((await web.post("/signin", { email: carol.email, password: "wrong" })).status, 200);
    const refused = await web.post("/signin", { email: carol.email, password: "password" });
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get("retry-after")) > 0);
    assert.match(refused.html, /Too many failed sign-ins for this account from this address/);
    await assertValidHtml(refused.html, "throttled sign-in");
    assert.equal(web.cookie("kairan_session"), undefined, "even the right password opens no session now");
  });
});
