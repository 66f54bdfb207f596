// Handing an imported placeholder account over to its person (issue #32): a manager invites the
// person's real address from the members page; the link's page lets its recipient choose a name and
// password, and the placeholder becomes their ordinary account with its imported history. Nobody
// else invites; a signed-in person, an address with an account, a forged, expired, withdrawn or
// used link, and an account that is no placeholder claim nothing.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import type { Topic } from "../../src/domain/topic.js";
import type { User } from "../../src/domain/user.js";
import { insertPlaceholderAccount } from "../../src/services/account/account-write.js";
import { setUserDisabled } from "../../src/services/account/account-admin.js";
import { updateSiteSettings } from "../../src/services/settings/site-settings.js";
import { COMMAND_LINE_ACTOR } from "../../src/domain/audit.js";
import { SIGNIN_COOKIE } from "../../src/web/session.js";
import { openOutbox } from "../support/account-mail.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

const NEW_PASSWORD = "a new password 123";
const DAY_MS = 24 * 60 * 60 * 1000;

describeEachBackend("web: claiming an imported placeholder by invitation", (backend) => {
  let server: TestServer;
  let mia: TestUser;
  let ned: TestUser;
  let oz: TestUser;
  let group: Group;
  let elsewhere: Group;
  let taro: User;
  let anon: User;
  let dora: TestUser;
  let topic: Topic;
  let g: string;
  const memberIdOf = async (userId: number) =>
    (await server.store.read((tx) => tx.memberships.findJoined(group.id, userId)))?.id ?? assert.fail("no member");

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    mia = await f.user({ name: "Mia" });
    ned = await f.user({ name: "Ned" });
    oz = await f.user({ name: "Oz" });
    dora = await f.user({ name: "Dora", email: "dora@example.com" });
    group = await f.group([mia, ned, dora], { name: "Imported" });
    elsewhere = await f.group([oz], { name: "Elsewhere" });
    g = `/g/1:${group.id}`;
    const at = server.clock.now();
    const made = await server.store.transaction(async (tx) => {
      const made = [
        await insertPlaceholderAccount(
          tx,
          { name: "山田 太郎", email: "taro@old.example", familyKana: "やまだ", givenKana: "たろう" },
          at,
        ),
        await insertPlaceholderAccount(
          tx,
          { name: "Nameless", email: "imported-1@placeholder.invalid", familyKana: "", givenKana: "" },
          at,
        ),
      ];
      for (const user of made)
        await tx.memberships.insertJoined({
          groupId: group.id,
          userId: user.id,
          manager: false,
          notify: true,
          createdAt: at,
        });
      // An account an administrator disabled is no placeholder.
      await tx.users.update(dora.id, { disabledAt: at });
      return made;
    });
    [taro, anon] = [made[0] ?? assert.fail("taro"), made[1] ?? assert.fail("anon")];
    topic = await f.topic(group, taro, { title: "From the old days" });
  });
  after(() => server.close());

  const signedIn = async (user: { email: string }) => {
    const web = new WebClient(server.url);
    await web.signIn(user.email);
    return web;
  };
  const placeholderOf = (id: number) => server.store.read((tx) => tx.users.findPlaceholder(id));
  const invite = async (web: WebClient, memberId: number, email: string) => {
    await web.get(`${g}/members`);
    return web.post(`${g}/members/1:${memberId}/claim`, { email });
  };
  const linkOf = (html: string) => /\/join\/1:\d+\/[A-Za-z0-9_-]+/.exec(html)?.[0] ?? assert.fail("no link shown");

  it("marks placeholders on the members page; a manager gets an invite form, prefilled with a real address", async () => {
    const managerPage = await (await signedIn(mia)).get(`${g}/members`);
    await assertValidHtml(managerPage.html, "members page with placeholders");
    assert.equal((managerPage.html.match(/imported, not claimed/g) ?? []).length, 2, "taro and the nameless one");
    assert.match(managerPage.html, new RegExp(`action="${g}/members/1:${await memberIdOf(taro.id)}/claim"`));
    assert.match(managerPage.html, /name="email" type="email" required autocomplete="off" value="taro@old.example"/);
    assert.doesNotMatch(
      managerPage.html,
      /value="imported-1@placeholder\.invalid"/,
      "a made-up address is not offered",
    );
    const memberPage = await (await signedIn(ned)).get(`${g}/members`);
    assert.match(memberPage.html, /imported, not claimed/);
    assert.doesNotMatch(memberPage.html, /\/claim"/, "no form for an ordinary member");
    const one = await (await signedIn(mia)).get(`${g}/members/1:${await memberIdOf(taro.id)}`);
    assert.match(one.html, /imported, not claimed/);
  });

  it("never lets a placeholder sign in", async () => {
    const web = new WebClient(server.url);
    await web.get("/signin");
    for (const password of ["!placeholder", "", "placeholder"]) {
      const answer = await web.post("/signin", { email: taro.email, password });
      assert.notEqual(answer.status, 303, password);
    }
  });

  it("refuses the invitation to a non-manager, a stranger, a non-placeholder and an address with an account", async () => {
    const taroMember = await memberIdOf(taro.id);
    const nedWeb = await signedIn(ned);
    assert.equal((await invite(nedWeb, taroMember, "taro@new.example")).status, 403, "not a manager");
    const ozWeb = await signedIn(oz);
    await ozWeb.get("/");
    const stranger = await ozWeb.post(`${g}/members/1:${taroMember}/claim`, { email: "taro@new.example" });
    assert.equal(stranger.status, 403);
    assert.doesNotMatch(stranger.html, /Imported|山田/);
    const miaWeb = await signedIn(mia);
    for (const [user, code] of [
      [ned, "was not imported as a placeholder"],
      [dora, "was not imported as a placeholder"],
    ] as const) {
      const answer = await invite(miaWeb, await memberIdOf(user.id), "someone@example.com");
      assert.equal(answer.status, 400);
      assert.match(answer.html, new RegExp(code));
    }
    const taken = await invite(miaWeb, taroMember, ned.email);
    assert.equal(taken.status, 400);
    assert.match(taken.html, /has an account already; an imported person&#39;s history cannot be merged/);
    const bad = await invite(miaWeb, taroMember, "not an address");
    assert.equal(bad.status, 400);
    const invitations = await server.store.read((tx) => tx.invitations.listOfGroup(group.id));
    assert.deepEqual(invitations, [], "nothing was invited");
  });

  it("mails the link; a signed-in person, a forged secret and another invitation's secret claim nothing", async () => {
    const miaWeb = await signedIn(mia);
    const answer = await invite(miaWeb, await memberIdOf(taro.id), "Taro@New.example");
    assert.equal(answer.status, 200, answer.html.slice(0, 300));
    const link = linkOf(answer.html);
    const outbox = openOutbox(server);
    try {
      const [mail] = await outbox.to("taro@new.example", "invitation");
      assert.ok(mail, "the message went to the real address");
      assert.match(mail.text_body, /「山田 太郎」として取り込まれた/, "in the server's language (no account to ask)");
      assert.equal(mail.user_id, null, "the placeholder itself is no recipient");
      assert.deepEqual(await outbox.to("taro@old.example"), [], "nothing to the placeholder's own address");
    } finally {
      await outbox.close();
    }
    const audit = await server.store.read((tx) => tx.auditEvents.list({ actions: ["member.invite"], limit: 5 }));
    assert.match(audit[0]?.details ?? "", new RegExp(`"placeholder":${taro.id}`));
    assert.equal(audit[0]?.outcome, "done");
    // The home page of whoever has the address never offers it (only the link takes it).
    const invitations = await server.store.read((tx) =>
      tx.invitations.listLiveForEmail("taro@new.example", server.clock.now()),
    );
    assert.deepEqual(invitations, []);

    const page = await new WebClient(server.url).get(link);
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "claim page");
    assert.match(page.html, /hands you the account “山田 太郎”/);
    assert.match(page.html, /id="join-name" name="name" type="text" autocomplete="name" required value="山田 太郎"/);

    const nedWeb = await signedIn(ned);
    const whileSignedIn = await nedWeb.get(link);
    assert.match(whileSignedIn.html, /You are signed in to another account/);
    assert.doesNotMatch(whileSignedIn.html, /id="join-password"/);
    // A form sent while signed in to another account (its token is the page's cookie, as a form
    // kept open from before signing in would carry).
    await nedWeb.get(link);
    const token = nedWeb.cookie(SIGNIN_COOKIE) ?? assert.fail("the page issues a form token");
    const refused = await nedWeb.post(link, { name: "Ned's twin", password: NEW_PASSWORD, _csrf: token });
    assert.equal(refused.status, 400);
    assert.match(refused.html, /You are signed in to another account/);
    assert.ok(await placeholderOf(taro.id), "still a placeholder");
    const claims = await server.store.read((tx) => tx.auditEvents.list({ actions: ["user.claim"], limit: 5 }));
    assert.equal(claims[0]?.outcome, "refused");
    assert.match(claims[0]?.details ?? "", /CLAIM_SIGNED_IN/);

    const other = await invite(miaWeb, await memberIdOf(anon.id), "anon@new.example");
    const otherSecret = linkOf(other.html).split("/")[3] ?? "";
    const [, , memberPart] = link.split("/");
    // An ordinary invitation of another group, by its manager: neither its secret nor its id mix with the claim's.
    const ozWeb = await signedIn(oz);
    await ozWeb.get(`/g/1:${elsewhere.id}/members`);
    const theirs = linkOf(
      (await ozWeb.post(`/g/1:${elsewhere.id}/members/invite`, { email: "guest@example.com" })).html,
    );
    const [, , theirMember, theirSecret] = theirs.split("/");
    const ownSecret = link.split("/")[3] ?? "";
    for (const forged of [
      `/join/${memberPart}/${"A".repeat(43)}`,
      `/join/${memberPart}/${otherSecret}`,
      `/join/${memberPart}/${theirSecret}`,
      `/join/${theirMember}/${ownSecret}`,
    ]) {
      const stranger = new WebClient(server.url);
      const form = await stranger.get(link);
      const answer = await stranger.post(forged, {
        name: "Intruder",
        password: NEW_PASSWORD,
        _csrf: formToken(form.html),
      });
      assert.equal(answer.status, 404, forged);
    }
    assert.ok(await placeholderOf(taro.id), "still a placeholder after the forged links");
  });

  it("hands the placeholder over: name and password chosen, enabled, its history kept, once only", async () => {
    const miaWeb = await signedIn(mia);
    const answer = await invite(miaWeb, await memberIdOf(taro.id), "taro@new.example");
    const first = linkOf(answer.html);
    // Sent again (ten minutes on): a new link that still hands the placeholder over; the old one ends.
    server.clock.advance(11 * 60 * 1000);
    await miaWeb.get(`${g}/members?status=INVITE`);
    const resent = await miaWeb.post(
      `${first.split("/").slice(0, 3).join("/").replace("/join", `${g}/members`)}/resend`,
    );
    assert.equal(resent.status, 200, resent.html.slice(0, 300));
    const link = linkOf(resent.html);
    assert.notEqual(link, first);
    assert.equal((await new WebClient(server.url).get(first)).status, 404);
    const outbox = openOutbox(server);
    try {
      const mails = await outbox.to("taro@new.example", "invitation");
      assert.match(mails.at(-1)?.text_body ?? "", /「山田 太郎」として取り込まれた/);
      assert.equal(mails.at(-1)?.user_id, null);
    } finally {
      await outbox.close();
    }
    const web = new WebClient(server.url);
    const page = await web.get(link);
    const short = await web.post(link, { name: "Taro", password: "short" });
    assert.equal(short.status, 400, "the password rules of any account");
    await web.get(link);
    const claimed = await web.post(link, { name: "Taro Yamada", password: NEW_PASSWORD });
    assert.equal(claimed.status, 303, claimed.html.slice(0, 300));
    assert.equal(claimed.location, `${g}/board`);
    assert.ok(page.html.length > 0);
    assert.equal(await placeholderOf(taro.id), undefined, "no longer a placeholder");
    const user = await server.store.read((tx) => tx.users.findById(taro.id));
    assert.deepEqual([user?.name, user?.email, user?.familyKana], ["Taro Yamada", "taro@new.example", "やまだ"]);
    assert.equal(await server.store.read((tx) => tx.users.isDisabled(taro.id)), false);
    assert.equal(
      (await server.store.read((tx) => tx.topics.findById(topic.id)))?.authorId,
      taro.id,
      "the history is theirs",
    );
    assert.ok(await server.store.read((tx) => tx.memberships.findJoined(group.id, taro.id)), "still a member");
    const board = await web.get(`${g}/board`);
    assert.equal(board.status, 200, "signed in as the claimed account");
    assert.match(board.html, /From the old days/);
    const again = new WebClient(server.url);
    await again.signIn("taro@new.example", NEW_PASSWORD);
    const audit = await server.store.read((tx) => tx.auditEvents.list({ actions: ["user.claim"], limit: 5 }));
    assert.equal(audit[0]?.outcome, "done");
    assert.equal(audit[0]?.actor_user_id, taro.id);

    assert.equal((await new WebClient(server.url).get(link)).status, 404, "a used link names nothing");
    const twice = await invite(miaWeb, await memberIdOf(taro.id), "taro@other.example");
    assert.equal(twice.status, 400);
    assert.match(twice.html, /has been claimed already/);
    const members = await miaWeb.get(`${g}/members`);
    assert.equal((members.html.match(/imported, not claimed/g) ?? []).length, 1, "only the nameless one is left");
  });

  it("claims nothing through an expired or withdrawn invitation; enabling by an operator ends the claims", async () => {
    const miaWeb = await signedIn(mia);
    const anonMember = await memberIdOf(anon.id);
    const first = linkOf((await invite(miaWeb, anonMember, "anon@new.example")).html);
    const web = new WebClient(server.url);
    await web.get(first);
    server.clock.advance(15 * DAY_MS);
    const expired = await web.post(first, { name: "Anon", password: NEW_PASSWORD });
    assert.equal(expired.status, 400);
    assert.match(expired.html, /expired/);
    assert.ok(await placeholderOf(anon.id));

    const second = linkOf((await invite(miaWeb, anonMember, "anon@new.example")).html);
    const [, , memberPart] = second.split("/");
    await miaWeb.get(`${g}/members?status=INVITE`);
    assert.equal((await miaWeb.post(`${g}/members/${memberPart}/remove`, {})).status, 303, "withdrawn");
    const withdrawn = await new WebClient(server.url).get(second);
    assert.equal(withdrawn.status, 404);
    assert.ok(await placeholderOf(anon.id));

    // The sign-up policy `closed` makes no account through an invitation, nor gives a placeholder one.
    const settings = {
      store: server.store,
      blobs: server.blobs,
      clock: server.clock,
      config: { locale: "en" as const, timeZone: "UTC", allowSignup: false },
    };
    await updateSiteSettings(settings, COMMAND_LINE_ACTOR, { signupPolicy: "closed" });
    const closedLink = linkOf((await invite(miaWeb, anonMember, "anon@new.example")).html);
    const closedWeb = new WebClient(server.url);
    const closedPage = await closedWeb.get(closedLink);
    assert.doesNotMatch(closedPage.html, /id="join-password"/, "no form under the closed policy");
    const closed = await closedWeb.post(closedLink, {
      name: "Anon",
      password: NEW_PASSWORD,
      _csrf: closedWeb.cookie(SIGNIN_COOKIE) ?? "",
    });
    assert.equal(closed.status, 403);
    assert.match(closed.html, /makes no new accounts, not even for invitations/);
    assert.ok(await placeholderOf(anon.id));
    await updateSiteSettings(settings, COMMAND_LINE_ACTOR, { signupPolicy: "invitation" });

    const third = linkOf((await invite(miaWeb, anonMember, "anon@new.example")).html);
    await setUserDisabled(server, { email: anon.email, disabled: false });
    assert.equal(await placeholderOf(anon.id), undefined, "enabled: an ordinary account");
    assert.equal((await new WebClient(server.url).get(third)).status, 404, "its claim ended");
  });
});

function formToken(html: string): string {
  return /name="_csrf" value="([^"]*)"/.exec(html)?.[1] ?? "";
}
