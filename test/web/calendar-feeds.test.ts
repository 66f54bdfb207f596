// The calendar addresses on the settings page over real HTTP: made and shown once, renewed (the
// old addresses stop at once), revoked.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml, textOfId } from "../support/web.js";

const ADDRESS = /^http:\/\/127\.0\.0\.1:\d+\/ical\/[A-Za-z0-9_-]{32}\/me\.ics$/;

describeEachBackend("the settings page's calendar addresses", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let group: Group;
  let web: WebClient;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    group = await server.factories.group([alice], { name: "Dev" });
    web = new WebClient(server.url);
    await web.signIn(alice.email);
  });
  after(() => server.close());

  /** Makes (or renews) the addresses through the form; returns the page's me.ics and group addresses. */
  const make = async () => {
    await web.get("/settings");
    const created = await web.post("/settings/calendar");
    assert.equal(created.status, 200, created.html.slice(0, 300));
    assert.equal(created.headers.get("cache-control"), "no-store");
    await assertValidHtml(created.html, "calendar addresses page");
    const mine = textOfId(created.html, "calendar-mine")!;
    const groupAddress = /<code class="calendar-group">([^<]+)<\/code>/.exec(created.html)?.[1] ?? "";
    return { mine, groupAddress, html: created.html };
  };

  it("offers to make addresses, then shows them once; they serve the calendars", async () => {
    const page = await web.get("/settings");
    await assertValidHtml(page.html, "settings");
    assert.match(page.html, /id="calendar"/);
    assert.match(page.html, /You have no calendar address\./);
    const { mine, groupAddress, html } = await make();
    assert.match(mine, ADDRESS);
    assert.equal(groupAddress, mine.replace(/me\.ics$/, `group/1:${group.id}.ics`));
    assert.match(html, /shown only once/);
    assert.equal((await request(mine)).status, 200);
    assert.equal((await request(groupAddress)).headers.get("content-type"), "text/calendar; charset=utf-8");
    const again = await web.get("/settings");
    assert.ok(!again.html.includes(mine.split("/")[4]!), "the secret is never shown again");
    assert.match(again.html, /Renew addresses/);
    assert.match(again.html, /Revoke addresses/);
    assert.equal(await server.store.read((tx) => tx.calendarFeeds.createdAtOf(alice.id)), server.clock.now());
  });

  it("renews: new addresses work and the old ones answer 404 at once", async () => {
    const first = await make();
    const second = await make();
    assert.notEqual(first.mine, second.mine);
    assert.equal((await request(first.mine)).status, 404);
    assert.equal((await request(first.groupAddress)).status, 404);
    assert.equal((await request(second.mine)).status, 200);
  });

  it("revokes: every address answers 404, the page offers to make new ones; revoking twice is a 404", async () => {
    const { mine, groupAddress } = await make();
    await web.get("/settings");
    const revoked = await web.post("/settings/calendar/revoke");
    assert.equal(revoked.status, 303);
    assert.equal(revoked.location, "/settings#calendar");
    assert.equal((await request(mine)).status, 404);
    assert.equal((await request(groupAddress)).status, 404);
    const page = await web.get("/settings");
    assert.match(page.html, /You have no calendar address\./);
    assert.equal((await web.post("/settings/calendar/revoke")).status, 404);
  });

  it("refuses the forms without the page's CSRF token, changing nothing", async () => {
    const { mine } = await make();
    assert.equal((await web.post("/settings/calendar", {}, { csrf: null })).status, 403);
    assert.equal((await web.post("/settings/calendar/revoke", {}, { csrf: null })).status, 403);
    assert.equal((await request(mine)).status, 200);
  });

  it("asks a visitor who is not signed in to sign in", async () => {
    const visitor = new WebClient(server.url);
    const answer = await visitor.post("/settings/calendar", {}, { csrf: null });
    assert.notEqual(answer.status, 200);
    assert.equal(await server.store.read((tx) => tx.calendarFeeds.createdAtOf(alice.id)), server.clock.now());
  });
});
