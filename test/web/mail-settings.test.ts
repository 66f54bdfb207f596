// Notification mail in the browser: the settings page's section, a group's switch on its member
// page, and one-click unsubscribe without signing in (RFC 8058): a GET only asks, a POST stops,
// a forged, expired or foreign token changes nothing.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { signToken } from "../../src/auth/signed-token.js";
import type { Group } from "../../src/domain/group.js";
import { DEFAULT_MAIL_SETTINGS } from "../../src/domain/mail-settings.js";
import { siteKey } from "../../src/services/site-key.js";
import { unsubscribeKey, unsubscribeUrl } from "../../src/services/mail-notify/unsubscribe.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type OutboxReader, minutes, openOutbox, postTopic, runMailer, setMail } from "../support/mail-notify.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describeEachBackend("notification mail in the browser", (backend) => {
  let server: TestServer;
  let outbox: OutboxReader;
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;
  const settingsOf = (user: TestUser) => server.store.read((tx) => tx.mailSettings.find(user.id));
  const groupsOff = async (user: TestUser) => [
    ...(await server.store.read((tx) => tx.mailSettings.groupsOff(user.id))),
  ];
  const linkFor = async (user: TestUser, scope: Parameters<typeof unsubscribeUrl>[3]) =>
    new URL(
      unsubscribeUrl({ baseUrl: () => server.url }, await unsubscribeKey(server), user.id, scope, server.clock.now()),
    ).pathname;

  before(async () => {
    server = await startTestServer(backend, { locale: "en" });
    outbox = openOutbox(server);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    group = await server.factories.group([alice, bob], { name: "Crew & <Co>" });
  });
  after(async () => {
    await outbox?.close();
    await server?.close();
  });

  it("shows the defaults on the settings page and keeps what the person chooses", async () => {
    const web = new WebClient(server.url);
    await web.signIn(bob.email);
    const page = await web.get("/settings");
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "settings page");
    assert.match(page.html, /<input type="radio" name="mode" value="digest" checked>/);
    assert.match(page.html, /<option value="8" selected>08:00<\/option>/);
    assert.match(page.html, /<input type="checkbox" name="personal" checked>/);
    assert.match(page.html, /Crew &amp; &lt;Co&gt;/);
    const saved = await web.post("/settings/mail", { mode: "each", digestHour: "23" });
    assert.equal(saved.status, 303);
    assert.equal(saved.location, "/settings?mail=saved#mail");
    assert.deepEqual(await settingsOf(bob), { mode: "each", digestHour: 23, personal: false });
    const again = await web.get("/settings?mail=saved");
    assert.match(again.html, /value="each" checked/);
    assert.match(again.html, /Mail settings saved\./);
  });

  it("refuses a value the form does not offer, and changes nothing", async () => {
    const web = new WebClient(server.url);
    await web.signIn(bob.email);
    const before = await settingsOf(bob);
    const attempts: Record<string, string>[] = [
      { mode: "each", digestHour: "24", personal: "on" },
      { mode: "weekly", digestHour: "8", personal: "on" },
      { mode: "each", digestHour: "-1" },
    ];
    for (const fields of attempts) {
      await web.get("/settings");
      const answer = await web.post("/settings/mail", fields);
      assert.equal(answer.status, 400, JSON.stringify(fields));
    }
    await web.get("/settings");
    assert.equal((await web.post("/settings/group-mail", { group: `1:${group.id}`, mail: "maybe" })).status, 400);
    assert.deepEqual(await settingsOf(bob), before);
    assert.deepEqual(await groupsOff(bob), []);
  });

  it("turns a group's mail off and back from the settings page and from the group's member page", async () => {
    const web = new WebClient(server.url);
    await web.signIn(alice.email);
    await web.get("/settings");
    assert.equal((await web.post("/settings/group-mail", { group: `1:${group.id}`, mail: "off" })).status, 303);
    assert.deepEqual(await groupsOff(alice), [group.id]);
    const members = await web.get(`/g/1:${group.id}/members`);
    assert.equal(members.status, 200);
    await assertValidHtml(members.html, "member page");
    assert.match(members.html, /Now: No mail\./);
    const back = await web.post(`/g/1:${group.id}/mail`, { mail: "default" });
    assert.equal(back.location, `/g/1:${group.id}/members?mail=saved#mail`);
    assert.deepEqual(await groupsOff(alice), []);
    assert.match((await web.get(`/g/1:${group.id}/members`)).html, /Now: Follows your settings\./);
  });

  it("unsubscribes in one click from the link a message carries, without a session", async () => {
    await setMail(server, alice.id, { mode: "each" });
    await postTopic(server, bob.token, group.id, "Weekly");
    server.clock.advance(minutes(5) + 1);
    await runMailer(server);
    const [mail] = (await outbox.fresh()).filter((m) => m.to === alice.email);
    const url = /^<(.+)>$/.exec(mail?.headers["List-Unsubscribe"] ?? "")?.[1] ?? "";
    assert.ok(url.startsWith(`${server.url}/unsubscribe/`), url);
    // A GET (a link checker, a preview) only asks.
    const page = await fetch(url, { headers: { "accept-language": "en" } });
    assert.equal(page.status, 200);
    const html = await page.text();
    await assertValidHtml(html, "unsubscribe page");
    assert.match(html, /Stop all mail about Crew &amp; &lt;Co&gt;\?/);
    assert.match(html, /<form method="post" action="\/unsubscribe\/[^"]+"/);
    assert.equal(page.headers.get("referrer-policy"), "no-referrer");
    assert.equal(page.headers.get("cache-control"), "no-store");
    assert.deepEqual(await groupsOff(alice), [], "a GET changes nothing");
    // What mail providers send (RFC 8058 §3.1).
    const post = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "en" },
      body: "List-Unsubscribe=One-Click",
    });
    assert.equal(post.status, 200);
    assert.match(await post.text(), /You will get no more mail about Crew &amp; &lt;Co&gt;\./);
    assert.deepEqual(await groupsOff(alice), [group.id]);
    // Twice: the same answer, nothing more changed.
    assert.equal((await fetch(url, { method: "POST", body: "List-Unsubscribe=One-Click" })).status, 200);
    assert.deepEqual(await groupsOff(alice), [group.id]);
    // And it works: no more mail about the group.
    await postTopic(server, bob.token, group.id, "Next week");
    server.clock.advance(minutes(5) + 1);
    await runMailer(server);
    assert.deepEqual(
      (await outbox.fresh()).filter((m) => m.to === alice.email),
      [],
    );
  });

  it("stops the digest and personal mail by their own links, as multipart too", async () => {
    const digest = await linkFor(bob, { kind: "digest" });
    await setMail(server, bob.id, { mode: "digest" });
    const form = new FormData();
    form.set("List-Unsubscribe", "One-Click");
    assert.equal((await fetch(`${server.url}${digest}`, { method: "POST", body: form })).status, 200);
    assert.deepEqual(await settingsOf(bob), { ...DEFAULT_MAIL_SETTINGS, mode: "off" });
    const personal = await linkFor(bob, { kind: "personal" });
    const ask = await fetch(`${server.url}${personal}`, { headers: { "accept-language": "ja" } });
    assert.match(await ask.text(), /メンション、割り当て、ダイレクトメッセージのメールを停止しますか？/);
    assert.equal((await fetch(`${server.url}/m${personal}`, { method: "POST" })).status, 200);
    assert.deepEqual(await settingsOf(bob), { ...DEFAULT_MAIL_SETTINGS, mode: "off", personal: false });
    await setMail(server, bob.id, {});
  });

  it("refuses a forged, altered, expired or foreign token, and changes nothing", async () => {
    await setMail(server, bob.id, {});
    const good = await linkFor(bob, { kind: "personal" });
    const token = good.split("/").at(-1) ?? "";
    const [payload = "", mac = ""] = token.split(".");
    const otherPayload = Buffer.from(
      JSON.stringify([server.clock.now() + minutes(60), String(alice.id), "personal"]),
    ).toString("base64url");
    const replyKey = await siteKey(server, "mail-reply");
    const refused = [
      `${payload}.${mac.slice(0, -2)}AA`,
      `${otherPayload}.${mac}`,
      `${payload}`,
      `${payload}.${mac}.x`,
      signToken(replyKey, "mail-unsubscribe", [String(bob.id), "personal"], server.clock.now() + minutes(60)),
      signToken(
        await unsubscribeKey(server),
        "mail-reply",
        [String(bob.id), "personal"],
        server.clock.now() + minutes(60),
      ),
      signToken(
        await unsubscribeKey(server),
        "mail-unsubscribe",
        [String(bob.id), "everything"],
        server.clock.now() + minutes(60),
      ),
      signToken(
        await unsubscribeKey(server),
        "mail-unsubscribe",
        ["999999", "personal"],
        server.clock.now() + minutes(60),
      ),
      signToken(await unsubscribeKey(server), "mail-unsubscribe", [String(bob.id)], server.clock.now() + minutes(60)),
      signToken(await unsubscribeKey(server), "mail-unsubscribe", [String(bob.id), "personal"], server.clock.now() - 1),
    ];
    for (const bad of refused) {
      for (const method of ["GET", "POST"]) {
        const answer = await fetch(`${server.url}/unsubscribe/${bad}`, {
          method,
          headers: { "accept-language": "en" },
          ...(method === "POST" ? { body: "List-Unsubscribe=One-Click" } : {}),
        });
        assert.equal(answer.status, 404, `${method} ${bad.slice(0, 60)}`);
        assert.match(await answer.text(), /This unsubscribe link is not valid, or it has expired\./);
      }
    }
    const long = await fetch(`${server.url}/unsubscribe/${"x".repeat(3000)}`, { method: "POST" });
    assert.equal(long.status, 414, "a token far longer than any signed one is refused before it is read");
    assert.deepEqual(await settingsOf(bob), DEFAULT_MAIL_SETTINGS);
    assert.deepEqual(await settingsOf(alice), { ...DEFAULT_MAIL_SETTINGS, mode: "each" });
    // The good link expires too: 180 days.
    server.clock.advance(181 * 24 * 60 * minutes(1));
    assert.equal((await fetch(`${server.url}${good}`, { method: "POST" })).status, 404);
    assert.deepEqual(await settingsOf(bob), DEFAULT_MAIL_SETTINGS);
  });
});
