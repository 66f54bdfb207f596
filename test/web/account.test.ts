// The account page over real HTTP: name and reading, language and time zone, password (other
// sessions end, this one stays). Every refusal is shown on the page and changes nothing.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { LIMITS } from "../../src/domain/limits.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");
}

describeEachBackend("web account page", (backend) => {
  let server: TestServer;
  let web: WebClient;
  let user: TestUser;

  before(async () => {
    server = await startTestServer(backend);
    user = await server.factories.user({ name: "Carol Chen" });
    web = new WebClient(server.url);
    await web.signIn(user.email);
  });
  after(() => server.close());

  const stored = () => server.store.read((tx) => tx.users.findById(user.id));
  const preferences = () => server.store.read((tx) => tx.users.findPreferences(user.id));

  it("shows every part of the account as valid HTML, linked from the navigation", async () => {
    const home = await web.get("/");
    assert.match(home.html, /<a href="\/account">Account<\/a>/);
    const page = await web.get("/account");
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "account page");
    for (const heading of ["Picture", "Name", "Language and time zone", "Password"])
      assert.match(page.html, new RegExp(`<h2 id="[a-z]+-title">${heading}</h2>`));
    assert.match(page.html, /value="Carol Chen"/);
    assert.match(page.html, /aria-current="page">Account</);
    const phone = await web.get("/m/account");
    assert.equal(phone.status, 200);
    assert.match(phone.html, /action="\/m\/account\/names"/);
  });

  it("saves the name and its reading, shown on every page at once", async () => {
    await web.get("/account");
    const answer = await web.post("/account/names", {
      name: "Carol Chen-Ito",
      familyKana: "ちぇん",
      givenKana: "きゃろる",
    });
    assert.equal(answer.status, 303);
    assert.equal(answer.location, "/account?saved=names#names");
    const page = await web.get("/account?saved=names");
    assert.match(page.html, /Signed in as Carol Chen-Ito/);
    assert.match(page.html, /<p class="notice" role="status">Saved\.<\/p>/);
    const user2 = await stored();
    assert.deepEqual([user2?.name, user2?.familyKana, user2?.givenKana], ["Carol Chen-Ito", "ちぇん", "きゃろる"]);
  });

  it("takes a name and readings at their limits and refuses one character more, changing nothing", async () => {
    await web.get("/account");
    const name = "名".repeat(LIMITS.userNameMaxChars);
    const kana = "か".repeat(LIMITS.userReadingMaxChars);
    assert.equal((await web.post("/account/names", { name, familyKana: kana, givenKana: kana })).status, 303);
    await web.get("/account");
    const cases: [Record<string, string>, string][] = [
      [{ name: `${name}x`, familyKana: "", givenKana: "" }, "The name is longer than 100 characters."],
      [{ name: "Carol", familyKana: `${kana}x`, givenKana: "" }, "longer than 100 characters"],
      [{ name: "Carol", familyKana: "", givenKana: `${kana}x` }, "longer than 100 characters"],
      [{ name: "   ", familyKana: "", givenKana: "" }, "The user's name is missing or empty."],
      [{ name: "Carol", familyKana: "a\nb", givenKana: "" }, "control characters"],
    ];
    for (const [fields, message] of cases) {
      const refused = await web.post("/account/names", fields);
      assert.equal(refused.status, 400, JSON.stringify(fields));
      assert.ok(text(refused.html).includes(message), `${message} in ${text(refused.html).slice(0, 300)}`);
      assert.match(refused.html, /role="alert" id="names-error"/);
      await assertValidHtml(refused.html, "refused names");
      assert.equal((await stored())?.name, name, "nothing changed");
    }
    // A NUL is refused before the account's rules, as in every form (INVALID_CHARACTER).
    const nul = await web.post("/account/names", { name: "Car\u0000ol", familyKana: "", givenKana: "" });
    assert.equal(nul.status, 400);
    assert.ok(text(nul.html).includes('The field "name" holds a control character'), text(nul.html).slice(0, 300));
    assert.equal((await stored())?.name, name, "nothing changed");
    assert.equal((await web.post("/account/names", { name: "Carol Chen", familyKana: "", givenKana: "" })).status, 303);
  });

  it("shows pages in the chosen language whatever the browser asks for, and in the browser's again when unset", async () => {
    await web.get("/account");
    assert.equal((await web.post("/account/preferences", { lang: "ja", timeZone: "" })).status, 303);
    const japanese = await web.get("/settings");
    assert.match(japanese.html, /<html lang="ja">/);
    assert.match(japanese.html, /<h1>設定<\/h1>/);
    assert.deepEqual(await preferences(), { lang: "ja", timeZone: null });
    await web.get("/account");
    assert.equal((await web.post("/account/preferences", { lang: "", timeZone: "" })).status, 303);
    assert.match((await web.get("/settings")).html, /<html lang="en">/, "the client asks for en");
    const japaneseBrowser = new WebClient(server.url, "ja");
    await japaneseBrowser.signIn(user.email);
    assert.match((await japaneseBrowser.get("/settings")).html, /<html lang="ja">/);
  });

  it("keeps a time zone in its canonical name and refuses what Intl does not know", async () => {
    await web.get("/account");
    assert.equal((await web.post("/account/preferences", { lang: "en", timeZone: "asia/tokyo" })).status, 303);
    assert.deepEqual(await preferences(), { lang: "en", timeZone: "Asia/Tokyo" });
    const page = await web.get("/account");
    assert.match(page.html, /<option selected>Asia\/Tokyo<\/option>/);
    for (const [fields, message] of [
      [{ lang: "en", timeZone: "Mars/Olympus" }, '"Mars/Olympus" is not a time zone'],
      [{ lang: "en", timeZone: "+09:00" }, "is not a time zone"],
      [{ lang: "en", timeZone: "x".repeat(5000) }, "is not a time zone"],
      [{ lang: "fr", timeZone: "" }, "The language must be ja or en."],
    ] as const) {
      const refused = await web.post("/account/preferences", fields);
      assert.equal(refused.status, 400);
      assert.ok(text(refused.html).includes(message), message);
      await assertValidHtml(refused.html, "refused preferences");
      assert.deepEqual(await preferences(), { lang: "en", timeZone: "Asia/Tokyo" }, "nothing changed");
    }
    assert.equal((await web.post("/account/preferences", { lang: "", timeZone: "" })).status, 303);
  });

  it("refuses a form without its token or without a session, changing nothing", async () => {
    await web.get("/account");
    const forged = await web.post("/account/names", { name: "Mallory" }, { csrf: "forged" });
    assert.equal(forged.status, 403);
    const strangers = new WebClient(server.url);
    const signedOut = await strangers.post("/account/preferences", { lang: "ja" }, { csrf: null });
    assert.equal(signedOut.status, 403);
    assert.match(signedOut.html, /Your session has ended/);
    assert.equal((await stored())?.name, "Carol Chen");
    assert.deepEqual(await preferences(), { lang: null, timeZone: null });
  });

  it("changes the password: wrong and weak ones refused; other sessions end, this one stays", async () => {
    const elsewhere = new WebClient(server.url);
    await elsewhere.signIn(user.email);
    await web.get("/account");
    const refusals: [Record<string, string>, string][] = [
      [{ current: "wrong", password: "fresh-secret", repeat: "fresh-secret" }, "The current password is wrong."],
      [{ current: "password", password: "1234567", repeat: "1234567" }, "shorter than 8 characters"],
      [{ current: "password", password: "fresh-secret", repeat: "fresh-secre7" }, "differ"],
      [
        { current: "password", password: "p".repeat(LIMITS.passwordMaxChars + 1), repeat: "" },
        "longer than 1024 characters",
      ],
    ];
    for (const [fields, message] of refusals) {
      const refused = await web.post("/account/password", fields);
      assert.equal(refused.status, 400, message);
      assert.ok(text(refused.html).includes(message), message);
      assert.ok(!/fresh-secre|1234567|value="password"/.test(refused.html), "a typed password is never sent back");
      await assertValidHtml(refused.html, "refused password");
    }
    assert.equal((await elsewhere.get("/")).status, 200, "nothing changed: the other session lives");
    const changed = await web.post("/account/password", {
      current: "password",
      password: "12345678",
      repeat: "12345678",
    });
    assert.equal(changed.status, 303);
    assert.equal(changed.location, "/account?saved=password#password");
    assert.match(text((await web.get(changed.location!)).html), /Your other sessions have been signed out/);
    assert.equal((await web.get("/")).status, 200, "this session stays");
    const ended = await elsewhere.get("/");
    assert.equal(ended.status, 303, "the other session is over");
    assert.match(ended.location ?? "", /^\/signin/);
    const fresh = new WebClient(server.url);
    await fresh.get("/signin");
    assert.equal((await fresh.post("/signin", { email: user.email, password: "password" })).status, 200, "old refused");
    await fresh.signIn(user.email, "12345678");
  });
});
