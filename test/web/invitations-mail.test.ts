// Invitations by e-mail in the browser: the members page invites an address and a message with the
// join link is written in the same transaction; resend (a new link, the old one dead; not twice in
// ten minutes) and withdraw; the invited list shows the end and the last message. The link makes an
// account even with sign-up closed, or leads an existing account to sign in and accept. Bounds:
// invitations waiting per group, messages per manager per hour, each at its boundary.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { ACCOUNT_MAIL_LIMITS } from "../../src/domain/account-link.js";
import { INVITATION_LIFETIME_MS } from "../../src/domain/invitation.js";
import { describeEachBackend } from "../support/backends.js";
import { type OutboxReader, linkPath, openOutbox } from "../support/account-mail.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

const HOUR = 60 * 60 * 1000;

describeEachBackend("web: invitations by e-mail", (backend) => {
  let server: TestServer;
  let outbox: OutboxReader;

  before(async () => {
    // Sign-up stays closed (the default): the invitation alone lets its holder make an account.
    server = await startTestServer(backend, { locale: "en" });
    outbox = openOutbox(server);
  });
  after(async () => {
    await outbox.close();
    await server.close();
  });

  /** A manager of a new group, signed in; the group's path. */
  async function managerWithGroup(name = "Maria", groupName = `Group of ${name}`) {
    const manager = await server.factories.user({ name });
    const group = await server.factories.group([manager], { name: groupName });
    const web = new WebClient(server.url);
    await web.signIn(manager.email);
    return { manager, group, web, g: `/g/1:${group.id}` };
  }

  async function invite(web: WebClient, g: string, email: string) {
    await web.get(`${g}/members`);
    return web.post(`${g}/members/invite`, { email });
  }

  it("writes the invitation's message with the join link, shows the link once, and lists when it was sent", async () => {
    const { web, g } = await managerWithGroup("Maria", "Design team");
    const answer = await invite(web, g, "Lena@Example.com");
    assert.equal(answer.status, 200);
    assert.match(answer.html, /lena@example\.com is invited: a message with the link to join is on its way/);
    await assertValidHtml(answer.html, "invitation made");
    const [mail, ...more] = await outbox.to("lena@example.com", "invitation");
    assert.equal(more.length, 0);
    assert.ok(mail);
    assert.equal(mail.subject, 'Invitation to join "Design team" on Kairan');
    assert.match(mail.text_body, /^Maria invites you to join the group "Design team" on Kairan\./);
    assert.match(mail.html_body ?? "", /<a href="http:\/\/127\.0\.0\.1:\d+\/join\/1:\d+\/[A-Za-z0-9_-]{32}">/);
    assert.equal(mail.user_id, null, "no account has the address");
    const link = linkPath(mail.text_body, server.url);
    assert.ok(answer.html.includes(link), "the page shows the same link");
    assert.match(mail.text_body, /works until 15 April 2026 at 09:00 \(UTC\)/, "14 days from now, in the site's zone");
    const list = await web.get(`${g}/members?status=INVITE`);
    assert.match(list.html, /Invitation valid until/);
    assert.match(list.html, /sent <time datetime="2026-04-01T09:00:00/);
    assert.match(list.html, /Send again \(new link\)/);
    await assertValidHtml(list.html, "invited list");
  });

  it("writes to an invitee with an account in their language, and says to sign in and accept", async () => {
    const { web, g } = await managerWithGroup("Ken");
    const invitee = await server.factories.user({ name: "山田" });
    await server.store.transaction((tx) => tx.users.update(invitee.id, { lang: "ja", timeZone: "Asia/Tokyo" }));
    await invite(web, g, invitee.email);
    const [mail] = await outbox.to(invitee.email, "invitation");
    assert.ok(mail);
    assert.match(mail.subject, /^Kairan のグループ「Group of Ken」への招待$/);
    assert.match(mail.text_body, /ログインして招待を承認/);
    assert.match(mail.text_body, /2026年4月15日 18:00 \(Asia\/Tokyo\)/);
    assert.equal(mail.user_id, invitee.id);
    assert.equal(mail.to_name, "山田");
  });

  it("lets the link make an account with sign-up closed, and lands in the group", async () => {
    const { web, g } = await managerWithGroup("Nora");
    await invite(web, g, "omar@example.com");
    const link = linkPath((await outbox.to("omar@example.com"))[0]?.text_body ?? "", server.url);
    const visitor = new WebClient(server.url);
    const page = await visitor.get(link);
    assert.equal(page.status, 200);
    assert.match(page.html, /name="password"/);
    await assertValidHtml(page.html, "join page, sign-up closed");
    const joined = await visitor.post(link, { name: "Omar", password: "omar-pass-1" });
    assert.equal(joined.status, 303);
    assert.equal(joined.location, `${g}/board`);
    assert.equal((await visitor.get(`${g}/board`)).status, 200);
    assert.equal((await visitor.get("/signup")).status, 403, "open sign-up stays closed");
    assert.equal((await new WebClient(server.url).get(link)).status, 404, "the link is used up");
  });

  it("leads an existing account to sign in and accept on the link's page", async () => {
    const { web, g } = await managerWithGroup("Olga");
    const pia = await server.factories.user({ name: "Pia" });
    await invite(web, g, pia.email);
    const link = linkPath((await outbox.to(pia.email))[0]?.text_body ?? "", server.url);
    const visitor = new WebClient(server.url);
    const page = await visitor.get(link);
    const signin = /href="([^"]*\/signin\?next=[^"]*)"/.exec(page.html)?.[1]?.replace(/&amp;/g, "&");
    assert.ok(signin, "a sign-in link back to this page");
    await visitor.get(signin);
    const signedIn = await visitor.post("/signin", { email: pia.email, password: "password", next: link });
    assert.equal(signedIn.location, link);
    const accept = await visitor.get(link);
    assert.match(accept.html, /Accept and join/);
    await assertValidHtml(accept.html, "join page, signed in");
    const done = await visitor.post(/action="([^"]*\/accept)"/.exec(accept.html)?.[1] ?? "");
    assert.equal(done.status, 303);
    assert.equal(done.location, `${g}/board`);
    // Signed in as someone else, the page says so and offers nothing.
    const { web: other, g: g2 } = await managerWithGroup("Quill");
    await invite(other, g2, "rae@example.com");
    const raeLink = linkPath((await outbox.to("rae@example.com"))[0]?.text_body ?? "", server.url);
    const wrong = await other.get(raeLink);
    assert.match(wrong.html, /this invitation is for another address/);
    assert.doesNotMatch(wrong.html, /Accept and join|name="password"/);
  });

  it("sends again with a new link (the old one dies), not twice within ten minutes; withdrawing kills the link", async () => {
    const { web, g } = await managerWithGroup("Sara");
    await invite(web, g, "tom@example.com");
    const first = linkPath((await outbox.to("tom@example.com"))[0]?.text_body ?? "", server.url);
    const memberPath = `${g}/members/${first.split("/")[2]}`;
    await web.get(`${g}/members?status=INVITE`);
    const soon = await web.post(`${memberPath}/resend`);
    assert.equal(soon.status, 429);
    assert.match(soon.headers.get("retry-after") ?? "", /^\d+$/);
    assert.match(soon.html, /sent less than 10 minutes ago/);
    await assertValidHtml(soon.html, "resend refused");
    assert.equal((await outbox.to("tom@example.com")).length, 1, "no second message");
    server.clock.advance(ACCOUNT_MAIL_LIMITS.resendIntervalMs - 1000);
    await web.get(`${g}/members?status=INVITE`);
    assert.equal((await web.post(`${memberPath}/resend`)).status, 429, "at 9:59 still refused");
    server.clock.advance(1000);
    await web.get(`${g}/members?status=INVITE`);
    const again = await web.post(`${memberPath}/resend`);
    assert.equal(again.status, 200);
    const mails = await outbox.to("tom@example.com");
    assert.equal(mails.length, 2);
    const second = linkPath(mails[1]?.text_body ?? "", server.url);
    assert.notEqual(second, first);
    assert.equal((await new WebClient(server.url).get(first)).status, 404, "the old link stopped working");
    assert.equal((await new WebClient(server.url).get(second)).status, 200);
    const member = await server.store.read((tx) => tx.memberships.findMember(Number(first.split("/")[2]?.slice(2))));
    assert.equal(member?.inviteSentAt, server.clock.now());
    assert.equal(member?.inviteExpiresAt, server.clock.now() + INVITATION_LIFETIME_MS);
    await web.get(memberPath);
    assert.equal((await web.post(`${memberPath}/remove`)).status, 303);
    assert.equal((await new WebClient(server.url).get(second)).status, 404, "withdrawn: the link is dead");
  });

  it("bounds the messages of a manager to 20 an hour (the 21st refused, nothing written) and lets them go on after", async () => {
    const { web, g } = await managerWithGroup("Uma");
    const before = (await outbox.rows()).length;
    for (let n = 1; n <= ACCOUNT_MAIL_LIMITS.invitationsPerManager; n++)
      assert.equal((await invite(web, g, `bulk${n}@example.com`)).status, 200, `invitation ${n}`);
    const refused = await invite(web, g, "bulk21@example.com");
    assert.equal(refused.status, 429);
    assert.match(refused.html, /sent 20 invitations in the last hour/);
    assert.match(refused.html, /value="bulk21@example\.com"/, "what was typed stays");
    assert.equal((await outbox.rows()).length, before + 20);
    assert.equal(
      await server.store.read((tx) => tx.invitations.findForEmail(Number(g.slice(5)), "bulk21@example.com")),
      undefined,
    );
    server.clock.advance(HOUR - 1000);
    assert.equal((await invite(web, g, "bulk21@example.com")).status, 429, "59:59 after the window began");
    server.clock.advance(1000);
    assert.equal((await invite(web, g, "bulk21@example.com")).status, 200, "a new window at 60:00");
  });

  it("bounds the invitations waiting in a group: the 100th accepted, the 101st refused", async () => {
    const { group, web, g } = await managerWithGroup("Vic");
    const limit = ACCOUNT_MAIL_LIMITS.pendingInvitationsPerGroup;
    await server.store.transaction(async (tx) => {
      for (let n = 1; n < limit; n++)
        await tx.memberships.insertInvite({
          groupId: group.id,
          email: `wait${n}@example.com`,
          label: `wait${n}@example.com`,
          expiresAt: null,
          createdAt: server.clock.now(),
        });
    });
    assert.equal((await invite(web, g, "last@example.com")).status, 200);
    const refused = await invite(web, g, "over@example.com");
    assert.equal(refused.status, 400);
    assert.match(refused.html, /has 100 invitations waiting already/);
    assert.equal((await outbox.to("over@example.com")).length, 0);
  });

  it("keeps the header fields of a message to one line whatever the group or manager is called", async () => {
    const { web, g } = await managerWithGroup("Eve\r\nBcc: victim@example.com", "Lunch\r\nBcc: victim@example.com");
    await invite(web, g, "xena@example.com");
    const [mail] = await outbox.to("xena@example.com");
    assert.ok(mail);
    assert.doesNotMatch(mail.subject, /[\r\n]/);
    assert.doesNotMatch(mail.text_body, /^Bcc:/m);
    assert.equal(mail.headers, "{}");
  });

  it("refuses an address no mail can go to, a member's address and a second invitation, writing nothing", async () => {
    const { manager, web, g } = await managerWithGroup("Walt");
    const before = (await outbox.rows()).length;
    for (const [email, pattern] of [
      ["ünï@example.com", /not an address Kairan can send mail to/],
      [manager.email, /is a member of this group already/],
      ["not-an-address", /is not an e-mail address/],
    ] as const) {
      const answer = await invite(web, g, email);
      assert.equal(answer.status, 400, email);
      assert.match(answer.html, pattern);
    }
    await invite(web, g, "yan@example.com");
    assert.match((await invite(web, g, "yan@example.com")).html, /is invited already/);
    assert.equal((await outbox.rows()).length, before + 1);
  });
});
