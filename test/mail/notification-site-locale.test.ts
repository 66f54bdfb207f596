// Notification mail follows the site's settings: someone who chose no language or zone reads their
// messages in the site's default language and gets their digest at the hour of the site's zone,
// as the admin pages set them, from the next pass on and without a restart.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { COMMAND_LINE_ACTOR } from "../../src/domain/audit.js";
import type { Group } from "../../src/domain/group.js";
import { updateSiteSettings } from "../../src/services/settings/site-settings.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type OutboxReader, minutes, openOutbox, postTopic, runMailer, setMail } from "../support/mail-notify.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("notification mail: the site's language and zone", (backend) => {
  let server: TestServer;
  let outbox: OutboxReader;
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;
  const setSite = (changes: Record<string, string>) =>
    updateSiteSettings(
      {
        store: server.store,
        blobs: undefined as never,
        clock: server.clock,
        config: { locale: "ja", timeZone: "UTC", allowSignup: false },
      },
      COMMAND_LINE_ACTOR,
      changes,
    );

  before(async () => {
    // The clock starts at 2026-04-01T09:00:00Z; the server's own option says Japanese.
    server = await startTestServer(backend, { locale: "ja" });
    outbox = openOutbox(server);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    group = await server.factories.group([alice, bob], { name: "Design" });
    await setMail(server, bob.id, { mode: "each" });
  });
  after(async () => {
    await outbox?.close();
    await server?.close();
  });

  it("writes in the server's language until the site's setting says another, then in that one", async () => {
    await postTopic(server, alice.token, group.id, "Plan", "The draft");
    server.clock.advance(minutes(6));
    await runMailer(server);
    const [before] = await outbox.fresh();
    assert.match(before?.text ?? "", /Aliceさんが/, "Japanese: the server's --locale");

    await setSite({ locale: "en" });
    await postTopic(server, alice.token, group.id, "Budget", "Numbers");
    server.clock.advance(minutes(6));
    await runMailer(server);
    const [afterChange] = await outbox.fresh();
    assert.match(afterChange?.text ?? "", /Alice added the topic “Budget”/, "English: the site's setting");
  });

  it("sends the digest of someone without a zone at their hour of the site's zone", async () => {
    await setMail(server, bob.id, { mode: "digest", digestHour: 8 });
    await setSite({ timeZone: "Asia/Tokyo" });
    // 08:00 in Tokyo is 23:00 UTC: the first pass after a zone appears sends nothing late.
    await runMailer(server);
    await outbox.fresh();
    await postTopic(server, alice.token, group.id, "Roadmap", "Next");
    const tokyoEight = Date.parse("2026-04-01T23:00:00Z");
    server.clock.advance(tokyoEight - 60_000 - server.clock.now());
    await runMailer(server);
    assert.deepEqual(await outbox.fresh(), [], "not before 08:00 in Tokyo");
    server.clock.advance(60_000);
    await runMailer(server);
    const digests = (await outbox.fresh()).filter((mail) => mail.kind === "digest");
    assert.deepEqual(
      digests.map((mail) => mail.to),
      [bob.email],
      "at 08:00 Tokyo time",
    );
    assert.match(digests[0]?.text ?? "", /Roadmap/);
  });
});
