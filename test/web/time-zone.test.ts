// The browser's time zone (issue #31): taken at sign-up and at a sign-in of an account without
// one, offered when it differs from the account's, and every time shown in the reader's zone.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { PASSWORD } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { enrolTotp, totpCode } from "../support/totp.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describeEachBackend("web: the browser's time zone", (backend) => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer(backend, { allowSignup: true });
  });
  after(() => server.close());

  const zoneOf = async (userId: number) =>
    (await server.store.read((tx) => tx.users.findPreferences(userId)))?.timeZone ?? null;

  /** Signs in through the form with the zone the page's script would send. */
  async function signIn(web: WebClient, user: TestUser, timeZone: string): Promise<void> {
    const form = await web.get("/signin");
    assert.match(form.html, /<input type="hidden" name="timeZone" value="" data-browser-zone>/);
    const answer = await web.post("/signin", { email: user.email, password: PASSWORD, timeZone });
    assert.equal(answer.status, 303);
  }

  it("takes the zone the sign-up form sends, and ignores one that is no zone", async () => {
    const web = new WebClient(server.url);
    const form = await web.get("/signup");
    assert.match(form.html, /<input type="hidden" name="timeZone" value="" data-browser-zone>/);
    await web.post("/signup", {
      name: "Kenji",
      email: "kenji@example.com",
      password: "12345678",
      timeZone: "Asia/Tokyo",
    });
    const kenji = await server.store.read((tx) => tx.users.findByEmail("kenji@example.com"));
    assert.equal(await zoneOf(kenji!.id), "Asia/Tokyo");
    const other = new WebClient(server.url);
    await other.get("/signup");
    const made = await other.post("/signup", {
      name: "Lena",
      email: "lena@example.com",
      password: "12345678",
      timeZone: "Mars/Olympus",
    });
    assert.equal(made.status, 303, "a zone that is none does not stop the sign-up");
    const lena = await server.store.read((tx) => tx.users.findByEmail("lena@example.com"));
    assert.equal(await zoneOf(lena!.id), null);
  });

  it("takes the zone of an invitation's link that makes the account", async () => {
    const manager = await server.factories.user({ name: "Mia" });
    const managerWeb = new WebClient(server.url);
    await managerWeb.signIn(manager.email);
    await managerWeb.get("/groups/new");
    const made = await managerWeb.post("/groups/new", { name: "Zone team", summary: "" });
    const g = made.location?.replace(/\/members$/, "") ?? "";
    await managerWeb.get(`${g}/members`);
    const invited = await managerWeb.post(`${g}/members/invite`, { email: "nina@example.com" });
    const link = /id="invitation-link">([^<]+)</.exec(invited.html)?.[1]?.replace(server.url, "") ?? "";
    assert.ok(link, "the invitation's link is shown");
    const web = new WebClient(server.url);
    const page = await web.get(link);
    assert.match(page.html, /<input type="hidden" name="timeZone" value="" data-browser-zone>/);
    const joined = await web.post(link, { name: "Nina", password: "nina-pass-1", timeZone: "America/New_York" });
    assert.equal(joined.status, 303);
    const nina = await server.store.read((tx) => tx.users.findByEmail("nina@example.com"));
    assert.equal(await zoneOf(nina!.id), "America/New_York");
  });

  it("stores the zone at a sign-in of an account without one, and shows times in it", async () => {
    const user = await server.factories.user({ name: "Aiko" });
    const web = new WebClient(server.url);
    await signIn(web, user, "Asia/Tokyo");
    assert.equal(await zoneOf(user.id), "Asia/Tokyo");
    const home = await web.get("/");
    assert.doesNotMatch(home.html, /zone-offer/, "nothing to offer: the account took it");
  });

  it("with a second factor, takes the zone at the second step, not at the password", async () => {
    const user = await server.factories.user({ name: "Eri" });
    const enrolling = new WebClient(server.url);
    await enrolling.signIn(user.email);
    const { secret } = await enrolTotp(enrolling, () => server.clock.now());
    server.clock.advance(30_000);
    const web = new WebClient(server.url);
    await web.get("/signin");
    const password = await web.post("/signin", { email: user.email, password: PASSWORD, timeZone: "Asia/Tokyo" });
    assert.match(password.location ?? "", /^\/signin\/second-factor/);
    assert.equal(await zoneOf(user.id), null, "nothing before the second factor");
    const step = await web.get(password.location!);
    assert.match(step.html, /<input type="hidden" name="timeZone" value="" data-browser-zone>/);
    const done = await web.post("/signin/second-factor", {
      code: totpCode(secret, server.clock.now()),
      timeZone: "Asia/Tokyo",
    });
    assert.equal(done.status, 303);
    assert.equal(await zoneOf(user.id), "Asia/Tokyo");
  });

  it("offers another browser's zone, switches on request and keeps on request", async () => {
    const user = await server.factories.user({ name: "Ben" });
    await server.store.transaction((tx) => tx.users.update(user.id, { timeZone: "Europe/Berlin" }));
    const web = new WebClient(server.url);
    await signIn(web, user, "Asia/Tokyo");
    assert.equal(await zoneOf(user.id), "Europe/Berlin", "an account's own zone is not overwritten");
    const page = await web.get("/schedule");
    assert.match(
      page.html,
      /Your browser is in the time zone Asia\/Tokyo; this site shows you times in Europe\/Berlin\./,
    );
    assert.match(page.html, /<input type="hidden" name="next" value="\/schedule">/);
    await assertValidHtml(page.html, "a page with the offer");
    const switched = await web.post("/account/zone-offer", {
      decision: "switch",
      timeZone: "Asia/Tokyo",
      next: "/schedule",
    });
    assert.equal(switched.status, 303);
    assert.equal(switched.location, "/schedule");
    assert.equal(await zoneOf(user.id), "Asia/Tokyo");
    assert.doesNotMatch((await web.get("/")).html, /zone-offer/, "answered: the offer goes");
    // Signing in from Berlin now: offered, and kept.
    const berlin = new WebClient(server.url, "ja");
    await signIn(berlin, user, "Europe/Berlin");
    const ja = await berlin.get("/");
    assert.match(ja.html, /ブラウザーのタイムゾーンは Europe\/Berlin ですが/);
    const kept = await berlin.post("/account/zone-offer", {
      decision: "keep",
      timeZone: "Europe/Berlin",
      next: "//evil.example",
    });
    assert.equal(kept.location, "/", "only a path of this site");
    assert.equal(await zoneOf(user.id), "Asia/Tokyo");
    assert.doesNotMatch((await berlin.get("/")).html, /zone-offer/);
  });

  it("refuses to switch to something that is no zone, and changes nothing", async () => {
    const user = await server.factories.user({ name: "Cai" });
    await server.store.transaction((tx) => tx.users.update(user.id, { timeZone: "UTC" }));
    const web = new WebClient(server.url);
    await signIn(web, user, "Asia/Tokyo");
    await web.get("/");
    for (const timeZone of ["", "Mars/Olympus", "+09:00"]) {
      const answer = await web.post("/account/zone-offer", { decision: "switch", timeZone, next: "/" });
      assert.equal(answer.status, 400, timeZone);
      assert.match(answer.html, /TIME_ZONE_INVALID|not a time zone|Choose a time zone/);
      await web.get("/");
    }
    assert.equal(await zoneOf(user.id), "UTC");
  });

  it("names the reader's zone on an event's page and suggests zones in the event form", async () => {
    const user = await server.factories.user({ name: "Dana" });
    const group = await server.factories.group([user], { name: "Calendar team" });
    await server.store.transaction((tx) => tx.users.update(user.id, { timeZone: "Asia/Tokyo" }));
    const web = new WebClient(server.url);
    await web.signIn(user.email);
    const form = await web.get(`/g/1:${group.id}/events/new`);
    assert.match(form.html, /<input id="event-zone" name="zone" type="text" list="event-zone-list"/);
    assert.match(
      form.html,
      /<datalist id="event-zone-list">[\s\S]*<option value="Asia\/Tokyo"><\/option>[\s\S]*<\/datalist>/,
    );
    await assertValidHtml(form.html, "the event form");
    const start = Date.UTC(2030, 4, 1, 0, 30);
    const eventId = await server.store.transaction((tx) =>
      tx.events.insert({
        title: "Stand-up",
        memo: "",
        start,
        end: start + 15 * 60 * 1000,
        allDay: false,
        timeZone: "UTC",
        rule: null,
        menuId: null,
        participantIds: [],
        facilityIds: [],
        exceptions: [],
        seriesEnd: start + 15 * 60 * 1000,
        groupId: group.id,
        creatorId: user.id,
        at: start,
      }),
    );
    const page = await web.get(`/g/1:${group.id}/events/1:${eventId}`);
    const when = /<dd id="event-when">([\s\S]*?)<\/dd>/.exec(page.html)?.[1] ?? "";
    assert.match(
      when,
      /9:30 AM<\/time> – <time[^>]*>[^<]*9:45 AM<\/time> <span class="zone-name">\(Asia\/Tokyo\)<\/span>/,
    );
    assert.match(when, /12:30 AM – [^<]*12:45 AM \(UTC\)/, "and in the event's own zone, named");
  });
});
