// Changing one's e-mail address on the account page, over real HTTP: the current password proves
// the account, a single-use link to the new address proves the address, nothing changes before the
// link's button is pressed, the old address is told after. An address another account has is
// refused without the asker learning it (its holder is told instead). Bounded per account.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { ACCOUNT_MAIL_LIMITS } from "../../src/domain/account-link.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type OutboxReader, linkPath, openOutbox } from "../support/account-mail.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

const HOUR = 60 * 60 * 1000;

describeEachBackend("web: address change", (backend) => {
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

  async function signedIn(name: string): Promise<{ user: TestUser; web: WebClient }> {
    const user = await server.factories.user({ name });
    const web = new WebClient(server.url);
    await web.signIn(user.email);
    return { user, web };
  }

  async function ask(web: WebClient, email: string, current = "password") {
    await web.get("/account");
    return web.post("/account/email", { email, current });
  }

  const emailOf = async (id: number) => (await server.store.read((tx) => tx.users.findById(id)))?.email;

  it("sends a link to the new address, changes nothing until its button is pressed, then tells the old address", async () => {
    const { user, web } = await signedIn("Ann");
    const page = await web.get("/account");
    assert.match(page.html, /<h2 id="email-title">E-mail address<\/h2>/);
    await assertValidHtml(page.html, "account page");
    const asked = await ask(web, " Ann.New@Example.com ");
    assert.equal(asked.status, 303);
    assert.equal(asked.location, "/account?saved=email#email");
    assert.match((await web.get("/account?saved=email")).html, /confirmation link is on its way/);
    const [confirm, ...more] = await outbox.to("ann.new@example.com", "address-confirm");
    assert.equal(more.length, 0);
    assert.ok(confirm);
    assert.equal(confirm.subject, "Confirm your new Kairan address");
    assert.equal(await emailOf(user.id), user.email, "nothing changed yet");
    const link = linkPath(confirm.text_body, server.url);
    assert.match(link, /^\/account\/email\/confirm\/[A-Za-z0-9_-]{32}$/);
    // Opening the link (a mail client's preview does) changes nothing.
    const visitor = new WebClient(server.url);
    const shown = await visitor.get(link);
    assert.equal(shown.status, 200);
    assert.match(shown.html, new RegExp(`from ${user.email.replace(".", "\\.")} to ann\\.new@example\\.com`));
    await assertValidHtml(shown.html, "confirmation page");
    assert.equal(await emailOf(user.id), user.email);
    const done = await visitor.post(link);
    assert.equal(done.status, 303);
    assert.equal(done.location, "/account?saved=email-changed#email");
    assert.equal(await emailOf(user.id), "ann.new@example.com");
    const [notice] = await outbox.to(user.email, "address-changed");
    assert.ok(notice, "the old address is told");
    assert.match(notice.text_body, new RegExp(`from ${user.email.replace(".", "\\.")} to ann\\.new@example\\.com`));
    assert.equal(notice.user_id, user.id);
    assert.match((await web.get("/account?saved=email-changed")).html, /Your e-mail address has been changed/);
    await new WebClient(server.url).signIn("ann.new@example.com");
    const used = await new WebClient(server.url).get(link);
    assert.equal(used.status, 400);
    assert.match(used.html, /used already/);
  });

  it("refuses a wrong password, the same address and a malformed one on the page, sending nothing", async () => {
    const { user, web } = await signedIn("Bob");
    const before = (await outbox.rows()).length;
    for (const [email, current, pattern] of [
      ["bob.new@example.com", "wrong", /The current password is wrong/],
      [user.email.toUpperCase(), "password", /This is your address already/],
      ["bob@", "password", /is not an e-mail address/],
      ["bøb@example.com", "password", /not an address Kairan can send mail to/],
    ] as const) {
      const answer = await ask(web, email, current);
      assert.equal(answer.status, 400, email);
      assert.match(answer.html, pattern);
      assert.match(answer.html, /id="email-error"/);
      await assertValidHtml(answer.html, "refused address change");
    }
    assert.equal((await outbox.rows()).length, before);
  });

  it("answers a taken address as any other, tells its holder instead, and sends no link", async () => {
    const { web } = await signedIn("Cy");
    const holder = await server.factories.user({ name: "Dee", email: "dee@example.com" });
    const taken = await ask(web, "dee@example.com");
    const { web: other } = await signedIn("Eli");
    const free = await ask(other, "eli.new@example.com");
    assert.deepEqual([taken.status, taken.location], [free.status, free.location], "the same answer");
    const [told, ...more] = await outbox.to("dee@example.com");
    assert.equal(more.length, 0);
    assert.match(told?.text_body ?? "", /belongs to another account here already, so nothing was changed/);
    assert.doesNotMatch(told?.text_body ?? "", /\/account\/email\/confirm\//, "no link");
    assert.equal(told?.user_id, holder.id);
  });

  it("refuses the change when the address was taken after the link went out", async () => {
    const { user, web } = await signedIn("Fay");
    await ask(web, "fay.new@example.com");
    const link = linkPath((await outbox.to("fay.new@example.com"))[0]?.text_body ?? "", server.url);
    await server.factories.user({ name: "Squatter", email: "fay.new@example.com" });
    const visitor = new WebClient(server.url);
    await visitor.get(link);
    const refused = await visitor.post(link);
    assert.equal(refused.status, 400);
    assert.match(refused.html, /exists already/);
    assert.equal(await emailOf(user.id), user.email);
  });

  it("keeps a link 24 hours: works at 23:59:59, not at 24:00", async () => {
    const { user, web } = await signedIn("Gus");
    await ask(web, "gus.new@example.com");
    const link = linkPath((await outbox.to("gus.new@example.com"))[0]?.text_body ?? "", server.url);
    const visitor = new WebClient(server.url);
    server.clock.advance(ACCOUNT_MAIL_LIMITS.addressConfirmMs - 1000);
    assert.equal((await visitor.get(link)).status, 200);
    const csrf = visitor.csrf();
    server.clock.advance(1000);
    const late = await visitor.post(link, {}, { csrf });
    assert.equal(late.status, 400);
    assert.match(late.html, /expired/);
    assert.equal(await emailOf(user.id), user.email);
  });

  it("bounds requests to 5 an hour per account (the 6th refused, sending nothing)", async () => {
    const { web } = await signedIn("Hal");
    for (let n = 1; n <= ACCOUNT_MAIL_LIMITS.addressChangesPerAccount; n++)
      assert.equal((await ask(web, `hal${n}@example.com`)).status, 303, `request ${n}`);
    const refused = await ask(web, "hal6@example.com");
    assert.equal(refused.status, 429);
    assert.match(refused.headers.get("retry-after") ?? "", /^\d+$/);
    assert.match(refused.html, /Too many address changes/);
    assert.equal((await outbox.to("hal6@example.com")).length, 0);
    server.clock.advance(HOUR);
    assert.equal((await ask(web, "hal6@example.com")).status, 303);
  });

  it("keeps a hostile name out of the header fields of both messages", async () => {
    const { user, web } = await signedIn("Ivy\r\nBcc: victim@example.com");
    await ask(web, "ivy.new@example.com");
    const [confirm] = await outbox.to("ivy.new@example.com");
    assert.doesNotMatch(`${confirm?.subject}${confirm?.to_name}`, /[\r\n]/);
    const visitor = new WebClient(server.url);
    const path = linkPath(confirm?.text_body ?? "", server.url);
    await visitor.get(path);
    assert.equal((await visitor.post(path)).status, 303);
    const [notice] = await outbox.to(user.email, "address-changed");
    assert.ok(notice);
    assert.doesNotMatch(`${notice.subject}${notice.to_name}`, /[\r\n]/);
    assert.doesNotMatch(notice.text_body, /^Bcc:/m);
  });
});
