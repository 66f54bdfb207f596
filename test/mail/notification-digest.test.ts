// The daily digest at each person's hour of their own clock: people in Tokyo, New York and the
// site's zone (UTC) get theirs at 08:00 local, once, with the day's changes by others grouped by
// group; someone who chose each change, or turned a group off, gets that group's changes elsewhere.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type OutboxReader, openOutbox, postComment, postTopic, runMailer, setMail } from "../support/mail-notify.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("notification mail: the daily digest", (backend) => {
  let server: TestServer;
  let outbox: OutboxReader;
  let alice: TestUser;
  let tokyo: TestUser;
  let newYork: TestUser;
  let site: TestUser;
  let each: TestUser;
  let design: Group;
  let ops: Group;
  const at = (iso: string) => {
    const target = Date.parse(iso);
    assert.ok(target >= server.clock.now(), `the clock only moves forward (to ${iso})`);
    server.clock.advance(target - server.clock.now());
  };

  before(async () => {
    // The clock starts at 2026-04-01T09:00:00Z.
    server = await startTestServer(backend, { locale: "en" });
    outbox = openOutbox(server);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    tokyo = await f.user({ name: "Taro" });
    newYork = await f.user({ name: "Nina" });
    site = await f.user({ name: "Sam" });
    each = await f.user({ name: "Eddie" });
    design = await f.group([alice, tokyo, newYork, site, each], { name: "Design" });
    ops = await f.group([alice, tokyo, newYork], { name: "Ops & <Infra>" });
    await server.store.transaction(async (tx) => {
      await tx.users.update(tokyo.id, { timeZone: "Asia/Tokyo", lang: "ja" });
      await tx.users.update(newYork.id, { timeZone: "America/New_York" });
      await tx.users.update(alice.id, { timeZone: "America/New_York" });
    });
    await setMail(server, each.id, { mode: "each" });
    await setMail(server, site.id, { digestHour: 10 });
    // The first pass finds every zone's 08:00 long gone: nothing is sent late.
    assert.equal((await runMailer(server)).digests, 0);
  });
  after(async () => {
    await outbox?.close();
    await server?.close();
  });

  it("sends each person one digest at their own 08:00, of the day's changes by others, grouped by group", async () => {
    const plan = await postTopic(server, alice.token, design.id, "Plan", "The draft");
    await postComment(server, alice.token, plan.id, "First comment");
    await postComment(server, newYork.token, plan.id, "Nina's comment");
    await postTopic(server, alice.token, ops.id, "Outage <b>report</b>");

    at("2026-04-01T10:00:00Z");
    await runMailer(server);
    const atTen = await outbox.fresh();
    assert.deepEqual(
      atTen.map((mail) => [mail.to, mail.kind]),
      [
        [each.email, "notification"],
        [site.email, "digest"],
      ],
      "10:00 UTC for the person of the site's zone who chose 10",
    );
    assert.match(atTen[1]?.text ?? "", /■ Design\n\n {2}Plan\n {2}- Alice added the topic “Plan” The draft/);
    assert.doesNotMatch(atTen[1]?.text ?? "", /Ops/, "not a member of Ops");

    at("2026-04-01T11:59:00Z");
    await runMailer(server);
    assert.deepEqual(await outbox.fresh(), []);
    at("2026-04-01T12:00:00Z");
    await runMailer(server);
    const atNoon = await outbox.fresh();
    assert.deepEqual(
      atNoon.map((mail) => mail.to).sort(),
      [alice.email, newYork.email].sort(),
      "only New York's 08:00 (EDT) has come",
    );
    const ny = atNoon.find((mail) => mail.to === newYork.email);
    const own = atNoon.find((mail) => mail.to === alice.email);
    assert.equal(own?.subject, "Daily digest: 1 change in your groups", "Alice hears of Nina's comment only");
    assert.equal(ny?.subject, "Daily digest: 3 changes in your groups", "her own comment is not told");
    assert.match(ny?.text ?? "", /■ Design[\s\S]*■ Ops & <Infra>/, "groups by name");
    assert.match(ny?.html ?? "", /<h2[^>]*>Ops &#38; &#60;Infra&#62;<\/h2>/, "escaped in the HTML part");
    assert.match(ny?.html ?? "", /Outage &#60;b&#62;report&#60;\/b&#62;/);
    assert.match(ny?.headers["List-Unsubscribe"] ?? "", /^<http:\/\/127\.0\.0\.1:\d+\/unsubscribe\/[^>]+>$/);
    assert.equal(ny?.headers["List-Unsubscribe-Post"], "List-Unsubscribe=One-Click");
    assert.doesNotMatch(ny?.text ?? "", /Nina's comment/);

    at("2026-04-01T22:59:00Z");
    await runMailer(server);
    assert.deepEqual(await outbox.fresh(), []);
    at("2026-04-01T23:00:00Z");
    await runMailer(server);
    const [jp, ...others] = await outbox.fresh();
    assert.equal(others.length, 0);
    assert.equal(jp?.to, tokyo.email, "08:00 in Tokyo is 23:00 UTC");
    assert.equal(jp?.subject, "毎日のまとめ：グループの更新 4 件");
    assert.match(jp?.text ?? "", /Ninaさんが「Plan」にコメントしました： Nina's comment/);

    // Another pass the same hour sends nothing again.
    await runMailer(server);
    assert.deepEqual(await outbox.fresh(), []);
    assert.equal(
      (await outbox.all()).filter((mail) => mail.to === each.email && mail.kind === "digest").length,
      0,
      "who chose each change gets no digest",
    );
  });

  it("starts a time zone nobody had before with its next digest hour, not the one under way", async () => {
    const paris = await server.factories.user({ name: "Pierre" });
    await server.store.transaction(async (tx) => {
      await tx.users.update(paris.id, { timeZone: "Europe/Paris" });
      await tx.memberships.insertJoined({
        groupId: design.id,
        userId: paris.id,
        manager: false,
        notify: true,
        createdAt: server.clock.now(),
      });
    });
    await postTopic(server, alice.token, design.id, "Before");
    // 08:00 in Paris (CEST) is 06:00 UTC; the clock is past that, within the hour.
    at("2026-04-02T06:30:00Z");
    await runMailer(server);
    assert.deepEqual(
      (await outbox.fresh()).filter((mail) => mail.to === paris.email),
      [],
    );
    await postTopic(server, alice.token, design.id, "Bonjour");
    at("2026-04-03T06:00:00Z");
    await runMailer(server);
    const [mail] = (await outbox.fresh()).filter((m) => m.to === paris.email);
    assert.match(mail?.text ?? "", /Bonjour/, "the next day's 08:00, with the day before it");
  });

  it("leaves out a group whose mail the person turned off, and sends no empty digest", async () => {
    await server.store.transaction((tx) => tx.mailSettings.setGroupOff(newYork.id, ops.id, true, server.clock.now()));
    await postTopic(server, alice.token, ops.id, "Only Ops");
    at("2026-04-03T12:00:00Z");
    await runMailer(server);
    const mails = await outbox.fresh();
    assert.equal(mails.filter((mail) => mail.to === newYork.email).length, 0, "nothing left after Ops is taken out");
    assert.equal(mails.filter((mail) => mail.to === site.email).length, 0, "nothing in Design today");
  });
});
