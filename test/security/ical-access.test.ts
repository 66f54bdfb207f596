// The authorization matrix of the calendar addresses (/ical/<secret>/...): the secret is the only
// credential, so every caller is a secret. Only a member's own secret opens a group's calendar;
// every other one gets the same 404 as a secret that never existed, and no one's calendar shows
// anything of a group they are not in.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { hashToken } from "../../src/auth/token.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type GroupItems, seedGroup } from "../support/world.js";

const TAG = "SECRET-ical";

describeEachBackend("calendar addresses: every secret x every calendar", (backend) => {
  let server: TestServer;
  let secret: GroupItems;
  let elsewhere: GroupItems;
  const secrets = new Map<string, string>();
  const address = (who: string, path: string) => `${server.url}/ical/${secrets.get(who) ?? who}${path}`;

  /** A calendar secret for `user`, named `who` in this file. */
  const give = async (who: string, user: TestUser) => {
    const value = `${who.replace(/\W/g, "-")}-${"x".repeat(24)}`.slice(0, 32);
    await server.store.transaction((tx) => tx.calendarFeeds.replace(user.id, hashToken(value), server.clock.now()));
    secrets.set(who, value);
  };

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    const owner = await f.user({ name: `${TAG} Owner` });
    const member = await f.user({ name: "Member" });
    const former = await f.user({ name: "Former" });
    const disabled = await f.user({ name: "Disabled" });
    const invited = await f.user({ name: "Invitee" });
    const outsider = await f.user({ name: "Outsider" });
    secret = await seedGroup(server, owner, [member, former, disabled], TAG);
    elsewhere = await seedGroup(server, outsider, [], "Elsewhere");
    await server.store.transaction(async (tx) => {
      await tx.memberships.insertInvite({
        groupId: secret.group.id,
        email: invited.email,
        label: "Invitee (invited)",
        expiresAt: null,
        createdAt: server.clock.now(),
      });
      const membership = await tx.memberships.findJoined(secret.group.id, former.id);
      await tx.memberships.remove(membership!.id);
    });
    for (const [who, user] of [
      ["member", member],
      ["former member", former],
      ["disabled member", disabled],
      ["invited, not joined", invited],
      ["member of another group", outsider],
      ["revoked", member],
    ] as const)
      await give(who, user);
    // The member's earlier secret, replaced by a renewal: as dead as one that never existed.
    await give("member", member);
    await server.store.transaction((tx) => tx.users.update(disabled.id, { disabledAt: server.clock.now() }));
  });
  after(() => server.close());

  it("opens the group's calendar and me.ics to its member's current secret only", async () => {
    const group = await request(address("member", `/group/${secret.groupPair}.ics`));
    assert.equal(group.status, 200);
    assert.ok(group.text.includes(`${TAG} event`));
    const mine = await request(address("member", "/me.ics"));
    assert.ok(mine.text.includes(`${TAG} event`));
  });

  it("answers every other secret with the same 404, and their own calendars show nothing of the group", async () => {
    const refusal = await request(address("no-such-secret-000000000000000000", `/group/${secret.groupPair}.ics`));
    assert.equal(refusal.status, 404);
    const strangers = [
      "former member",
      "disabled member",
      "invited, not joined",
      "member of another group",
      "revoked",
      secrets.get("member")!.toUpperCase(),
      secrets.get("member")!.slice(0, -1),
      "",
      "%00",
    ];
    for (const who of strangers) {
      for (const path of [`/group/${secret.groupPair}.ics`, `/group/${secret.groupPair.replace(":", "%3A")}.ics`]) {
        const answer = await request(address(who, path));
        assert.equal(answer.status, 404, `${who}: ${path}`);
        assert.equal(answer.text, refusal.text, `${who}: the same refusal`);
      }
      const mine = await request(address(who, "/me.ics"));
      if (mine.status === 200) {
        assert.ok(["former member", "invited, not joined", "member of another group"].includes(who), who);
        for (const text of [...secret.secrets, `${TAG} event memo`])
          assert.ok(!mine.text.includes(text), `${who}'s me.ics shows "${text}"`);
      } else assert.equal(mine.status, 404, who);
    }
    const own = await request(address("member of another group", `/group/${elsewhere.groupPair}.ics`));
    assert.equal(own.status, 200);
    assert.ok(own.text.includes("Elsewhere event") && !own.text.includes(TAG));
  });

  it("takes no credential but the secret: a Bearer token or a session cookie opens nothing", async () => {
    const answer = await request(`${server.url}/ical/-/group/${secret.groupPair}.ics`, { token: "anything" });
    assert.equal(answer.status, 404);
  });
});
