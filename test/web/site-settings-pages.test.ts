// The site's settings on every page, without a restart: the site name in titles and the header,
// and the default language and time zone for people who chose none (their own choice still wins;
// the browser's language still wins over the default). Both engines, over real HTTP.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { COMMAND_LINE_ACTOR } from "../../src/domain/audit.js";
import { passwordResetMail } from "../../src/mail/account/password-reset.js";
import { recipientLocale } from "../../src/services/account/mail-recipient.js";
import { recordAudit } from "../../src/services/audit/audit-log.js";
import { updateSiteSettings } from "../../src/services/settings/site-settings.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient } from "../support/web.js";

describeEachBackend("web: the site's name, language and time zone settings", (backend) => {
  let server: TestServer;
  let manager: TestUser;
  let groupId: number;
  const settingsContext = () => ({
    store: server.store,
    blobs: server.blobs,
    clock: server.clock,
    // The server's own defaults (--locale ja, --time-zone Asia/Tokyo), so a change is a change.
    config: { locale: "ja" as const, timeZone: "Asia/Tokyo", allowSignup: false },
  });

  before(async () => {
    server = await startTestServer(backend);
    manager = await server.factories.user({ name: "Mia" });
    groupId = (await server.factories.group([manager])).id;
    // A row at 09:00 UTC, which the group's log prints in the reader's zone.
    await server.store.transaction((tx) =>
      recordAudit(tx, server.clock, { action: "group.update", actor: COMMAND_LINE_ACTOR, groupId }),
    );
  });
  after(() => server.close());

  it("names the site Kairan, in the server's language and zone, until a setting is stored", async () => {
    const page = await new WebClient(server.url, "").get("/signin");
    assert.match(page.html, /<title>[^<]* · Kairan<\/title>/);
    assert.match(page.html, /<html lang="ja">/, "the server's --locale default");
  });

  it("applies a stored name, language and zone at the next request", async () => {
    await updateSiteSettings(settingsContext(), COMMAND_LINE_ACTOR, {
      siteName: "Team <Hub>",
      locale: "en",
      timeZone: "America/New_York",
    });
    const anonymous = await new WebClient(server.url, "").get("/signin");
    assert.match(anonymous.html, /<title>[^<]* · Team &lt;Hub&gt;<\/title>/);
    assert.match(anonymous.html, /<html lang="en">/);
    // A browser that asks for Japanese still gets it.
    assert.match((await new WebClient(server.url, "ja").get("/signin")).html, /<html lang="ja">/);
    const web = new WebClient(server.url, "");
    await web.signIn(manager.email);
    const log = await web.get(`/g/1:${groupId}/audit`);
    assert.match(log.html, /class="brand"[^>]*>Team &lt;Hub&gt;</);
    assert.match(log.html, /<html lang="en">/);
    assert.match(log.html, /<time datetime="[^"]+">[^<]*\b0?5:00[^<]*<\/time>/, "09:00 UTC in New York (EDT)");
    // The person's own choice wins over the site's.
    await server.store.transaction((tx) => tx.users.update(manager.id, { lang: "ja", timeZone: "UTC" }));
    const own = await web.get(`/g/1:${groupId}/audit`);
    assert.match(own.html, /<html lang="ja">/);
    assert.match(own.html, /<time datetime="[^"]+">[^<]*\b0?9:00[^<]*<\/time>/);
  });

  it("gives account mail the site's name, and its language and zone to people who chose none", async () => {
    const mailContext = {
      store: server.store,
      blobs: server.blobs,
      clock: server.clock,
      baseUrl: () => server.url,
      config: { mail: undefined as never, locale: "ja" as const, timeZone: "Asia/Tokyo" },
    };
    const nobody = await server.store.read((tx) => recipientLocale(tx as never, mailContext, undefined));
    assert.deepEqual(nobody, { lang: "en", timeZone: "America/New_York", siteName: "Team <Hub>" });
    const composed = passwordResetMail({ ...nobody, name: "Ann", email: "ann@example.com", link: "x", expiresAt: 0 });
    assert.equal(composed.subject, "Reset your Team <Hub> password");
    const chosen = await server.store.read((tx) => recipientLocale(tx as never, mailContext, manager.id));
    assert.deepEqual(chosen, { lang: "ja", timeZone: "UTC", siteName: "Team <Hub>" });
  });
});
