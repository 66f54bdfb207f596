// "Forgot your password?" over real HTTP: the same answer, status and body for an address with an
// account and one without (and a disabled one); a single-use link valid for exactly one hour; a
// reset that ends every other session and the applications' sign-ins but not personal tokens, and
// signs in; the throttles at their boundaries (per typed address, per account, per client).
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { hashToken } from "../../src/auth/token.js";
import { ACCOUNT_MAIL_LIMITS } from "../../src/domain/account-link.js";
import { describeEachBackend } from "../support/backends.js";
import { type OutboxReader, linkPath, openOutbox } from "../support/account-mail.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

const HOUR = 60 * 60 * 1000;

describeEachBackend("web: password reset", (backend) => {
  let server: TestServer;
  let outbox: OutboxReader;

  before(async () => {
    server = await startTestServer(backend, { locale: "en" });
    outbox = openOutbox(server);
  });
  after(async () => {
    await outbox.close();
    await server.close();
  });

  /** A new window for every counter (each test starts with its full allowance from this client). */
  const freshHour = () => server.clock.advance(HOUR + 1);

  async function ask(web: WebClient, email: string) {
    await web.get("/password/forgot");
    return web.post("/password/forgot", { email });
  }

  async function resetLinkOf(email: string): Promise<string> {
    const mails = await outbox.to(email, "password-reset");
    return linkPath(mails.at(-1)?.text_body ?? "", server.url);
  }

  it("offers the form from the sign-in page", async () => {
    freshHour();
    const web = new WebClient(server.url);
    const signin = await web.get("/signin");
    assert.match(signin.html, /<a href="\/password\/forgot">Forgot your password\?<\/a>/);
    const form = await web.get("/password/forgot");
    assert.equal(form.status, 200);
    await assertValidHtml(form.html, "forgot form");
    assert.equal((await web.get("/m/password/forgot")).status, 200);
  });

  it("answers an address with an account, one without and a disabled one alike, and mails only the first", async () => {
    freshHour();
    const ann = await server.factories.user({ name: "Ann", email: "ann@example.com" });
    const dis = await server.factories.user({ name: "Dis", email: "dis@example.com" });
    await server.store.transaction((tx) => tx.users.update(dis.id, { disabledAt: server.clock.now() }));
    const answers = [];
    for (const email of ["Ann@Example.com", "nobody@example.com", "dis@example.com"]) {
      const answer = await ask(new WebClient(server.url), email);
      answers.push({ status: answer.status, body: answer.html, cookie: answer.headers.getSetCookie().length });
    }
    assert.equal(answers[0]?.status, 200);
    assert.deepEqual(answers[1], answers[0], "unknown address: the same status and body");
    assert.deepEqual(answers[2], answers[0], "disabled account: the same status and body");
    assert.match(answers[0]?.body ?? "", /If an account has this address, a message with a link/);
    assert.doesNotMatch(answers[0]?.body ?? "", /ann@example\.com/i, "the address is not echoed");
    await assertValidHtml(answers[0]?.body ?? "", "forgot answer");
    const [mail, ...more] = await outbox.to("ann@example.com", "password-reset");
    assert.equal(more.length, 0);
    assert.equal(mail?.user_id, ann.id);
    assert.equal(mail?.subject, "Reset your Kairan password");
    assert.match(mail?.text_body ?? "", /The link works once, until 1 April 2026 at \d\d:\d\d \(UTC\)/);
    assert.equal((await outbox.to("nobody@example.com")).length, 0);
    assert.equal((await outbox.to("dis@example.com")).length, 0);
    // Only the link's hash is stored.
    const secret = (await resetLinkOf("ann@example.com")).split("/")[3] ?? "";
    const row = await server.store.read((tx) => tx.accountTokens.find("password-reset", hashToken(secret)));
    assert.equal(row?.userId, ann.id);
    assert.equal(row?.expiresAt, server.clock.now() + HOUR);
  });

  it("sets a new password once, ends the other sessions and the applications' sign-ins, keeps personal tokens, signs in", async () => {
    freshHour();
    const bea = await server.factories.user({ name: "Bea" });
    const elsewhere = new WebClient(server.url);
    await elsewhere.signIn(bea.email);
    const oauth = await server.store.transaction((tx) =>
      tx.tokens.insert({
        userId: bea.id,
        appId: bea.consumer.id,
        tokenHash: hashToken("bea-oauth-token"),
        secret: "s",
        label: "",
        origin: "oauth",
        createdAt: server.clock.now(),
      }),
    );
    await ask(new WebClient(server.url), bea.email);
    await ask(new WebClient(server.url), bea.email);
    const [older, link] = (await outbox.to(bea.email, "password-reset")).map((m) => linkPath(m.text_body, server.url));
    assert.ok(older && link);
    const web = new WebClient(server.url);
    const form = await web.get(link);
    assert.equal(form.status, 200);
    assert.match(form.html, new RegExp(`For the account ${bea.email.replace(".", "\\.")}`));
    await assertValidHtml(form.html, "reset form");
    for (const [fields, pattern] of [
      [{ password: "new-pass-1", repeat: "new-pass-2" }, /differ/],
      [{ password: "short", repeat: "short" }, /shorter than 8/],
      [{ password: "x".repeat(1025), repeat: "x".repeat(1025) }, /longer than 1024/],
    ] as const) {
      const refused = await web.post(link, fields);
      assert.equal(refused.status, 400);
      assert.match(refused.html, pattern);
    }
    assert.equal((await web.get(link)).status, 200, "a refused password leaves the link usable");
    const done = await web.post(link, { password: "new-pass-1", repeat: "new-pass-1" });
    assert.equal(done.status, 303);
    assert.equal(done.location, "/account?saved=password#password");
    const account = await web.get("/account?saved=password");
    assert.equal(account.status, 200, "signed in");
    assert.match(account.html, /Your password has been changed/);
    assert.equal((await elsewhere.get("/")).status, 303, "the other session ended");
    const revoked = await server.store.read((tx) => tx.tokens.findLive(hashToken("bea-oauth-token")));
    assert.equal(revoked, undefined, "the application's sign-in is revoked");
    assert.ok(await server.store.read((tx) => tx.tokens.findLive(hashToken(bea.token))), "the personal token stays");
    void oauth;
    await new WebClient(server.url).signIn(bea.email, "new-pass-1");
    const old = new WebClient(server.url);
    await old.get("/signin");
    assert.equal(
      (await old.post("/signin", { email: bea.email, password: "password" })).status,
      200,
      "old password fails",
    );
    // Used: a clear page; the account's older link went with it.
    const again = await new WebClient(server.url).get(link);
    assert.equal(again.status, 400);
    assert.match(again.html, /This link has been used already/);
    assert.match(again.html, /href="\/password\/forgot"/);
    await assertValidHtml(again.html, "used link");
    assert.equal((await new WebClient(server.url).get(older)).status, 404, "the other link is gone");
    const reuse = new WebClient(server.url);
    await reuse.get("/password/forgot");
    assert.equal((await reuse.post(link, { password: "other-pass-1", repeat: "other-pass-1" })).status, 400);
  });

  it("works at 59:59 and not at 60:00", async () => {
    freshHour();
    const cy = await server.factories.user({ name: "Cy" });
    await ask(new WebClient(server.url), cy.email);
    const link = await resetLinkOf(cy.email);
    const web = new WebClient(server.url);
    server.clock.advance(HOUR - 1000);
    assert.equal((await web.get(link)).status, 200, "59:59");
    const csrf = web.csrf();
    server.clock.advance(1000);
    const expired = await web.get(link);
    assert.equal(expired.status, 400, "60:00");
    assert.match(expired.html, /This link has expired/);
    const late = await web.post(link, { password: "late-pass-1", repeat: "late-pass-1" }, { csrf });
    assert.equal(late.status, 400);
    assert.match(late.html, /This link has expired/);
    await new WebClient(server.url).signIn(cy.email);
  });

  it("answers unknown and malformed links with a clear 404 page", async () => {
    const web = new WebClient(server.url);
    for (const path of [
      "/password/reset/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      "/password/reset/x",
      "/password/reset/%00%0d%0a",
    ]) {
      const answer = await web.get(path);
      assert.equal(answer.status, 404, path);
      assert.match(answer.html, /This link is not valid/);
    }
  });

  it("mails an account at most 3 times an hour, answering alike after; refuses a typed address's 6th request", async () => {
    freshHour();
    const dan = await server.factories.user({ name: "Dan" });
    const answers: { status: number; body: string }[] = [];
    for (let n = 1; n <= ACCOUNT_MAIL_LIMITS.resetsPerAddress; n++) {
      const answer = await ask(new WebClient(server.url), dan.email);
      answers.push({ status: answer.status, body: answer.html });
    }
    assert.ok(
      answers.every((a) => a.status === 200 && a.body === answers[0]?.body),
      "five alike",
    );
    assert.equal((await outbox.to(dan.email, "password-reset")).length, ACCOUNT_MAIL_LIMITS.resetsPerAccount);
    const sixth = await ask(new WebClient(server.url), dan.email);
    assert.equal(sixth.status, 429);
    assert.match(sixth.headers.get("retry-after") ?? "", /^\d+$/);
    assert.match(sixth.html, /Too many password reset requests/);
    // An address without an account is refused at the same request.
    for (let n = 1; n <= ACCOUNT_MAIL_LIMITS.resetsPerAddress; n++)
      assert.equal((await ask(new WebClient(server.url), "ghost@example.com")).status, 200);
    assert.equal((await ask(new WebClient(server.url), "ghost@example.com")).status, 429);
    server.clock.advance(HOUR);
    assert.equal((await ask(new WebClient(server.url), dan.email)).status, 200, "a new hour");
    assert.equal((await outbox.to(dan.email, "password-reset")).length, ACCOUNT_MAIL_LIMITS.resetsPerAccount + 1);
  });

  it("refuses a client's 21st request in an hour, whatever the addresses", async () => {
    freshHour();
    for (let n = 1; n <= ACCOUNT_MAIL_LIMITS.resetsPerClient; n++)
      assert.equal((await ask(new WebClient(server.url), `many${n}@example.com`)).status, 200, `request ${n}`);
    const refused = await ask(new WebClient(server.url), "many21@example.com");
    assert.equal(refused.status, 429);
    assert.match(refused.html, /value="many21@example\.com"/);
  });

  it("refuses a malformed address and a form without its token, mailing nothing", async () => {
    freshHour();
    const web = new WebClient(server.url);
    const bad = await ask(web, "not an address");
    assert.equal(bad.status, 400);
    assert.match(bad.html, /is not an e-mail address/);
    const forged = await new WebClient(server.url).post("/password/forgot", { email: "ann@example.com", _csrf: "x" });
    assert.equal(forged.status, 403);
  });
});
