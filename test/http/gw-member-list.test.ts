import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { attribute } from "../../src/atom/parse.js";
import type { Group } from "../../src/domain/group.js";
import { assertValidAtom } from "../support/atom-schema.js";
import type { TestUser } from "../support/factories.js";
import { describeEachBackend } from "../support/backends.js";
import { assertError, atomText, entriesOf, nsChild, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("GET /api/gwMemberList/V2", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let outsider: TestUser;
  let group: Group;
  let inviteId: number;
  let members: (query: string, token?: string) => ReturnType<typeof request>;
  const byName = (entries: ReturnType<typeof entriesOf>, name: string) =>
    entries.find((e) => atomText(e, "title") === name)!;

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice Aoki" });
    server.clock.advance(1000);
    bob = await f.user({ name: "Bob Baba" });
    outsider = await f.user();
    group = await f.group([alice, bob], { name: "Dev" });
    server.clock.advance(1000);
    inviteId = await server.store.transaction((tx) =>
      tx.memberships.insertInvite({
        groupId: group.id,
        email: "carol@example.com",
        label: "Carol (invited)",
        expiresAt: Date.parse("2027-01-01T00:00:00Z"),
        createdAt: server.clock.now(),
      }),
    );
    members = (query, token = alice.token) => request(`${server.url}/api/gwMemberList/V2?${query}`, { token });
  });
  after(() => server.close());

  it("lists joined members with totalCount; the caller's own entry has no link", async () => {
    const answer = await members(`group=1:${group.id}`);
    assert.equal(answer.status, 200);
    await assertValidAtom(answer.text);
    assert.equal(nsChild(answer.xml, "cbl", "totalCount")?.text, "2");
    assert.match(
      answer.text,
      /<\/updated><cbl:totalCount>2<\/cbl:totalCount><link rel="next-changes"[^>]*\/><link rel="hub"[^>]*\/><link rel="self"[^>]*\/><entry>/,
      "totalCount right after the feed's updated (then the delta-sync and WebSub links)",
    );
    const entries = entriesOf(answer.xml);
    assert.equal(entries.length, 2);
    const self = byName(entries, "Alice Aoki");
    const other = byName(entries, "Bob Baba");
    assert.equal(nsChild(self, "atom", "link"), undefined, "no link on the caller's entry");
    assert.equal(
      other.children
        .filter((c) => c.local === "link")
        .map((l) => attribute(l, "rel"))
        .join(","),
      "alternate,mobile",
    );
    const memberId = atomText(other, "id")!;
    assert.match(memberId, /^1:\d+$/);
    assert.equal(nsChild(other, "cblGrp", "groupwareMemberId")?.text, memberId);
    assert.equal(attribute(nsChild(other, "cbl", "who")!, "id"), `1:${bob.id}`);
    assert.equal(attribute(nsChild(other, "cbl", "who")!, "valueString"), "Bob Baba");
    assert.equal(attribute(nsChild(other, "cbl", "group")!, "id"), `1:${group.id}`);
    assert.equal(nsChild(other, "cblPrfl", "familyKana")?.text, "");
    assert.equal(nsChild(self, "cblGrp", "manager")?.text, "true");
    assert.equal(nsChild(other, "cblGrp", "manager")?.text, "false");
    assert.equal(nsChild(other, "cblGrp", "deletable")?.text, "true");
    assert.equal(attribute(nsChild(other, "cblGrp", "deletable")!, "authority"), "true", "alice manages");
    assert.equal(nsChild(self, "cblGrp", "deletable")?.text, "false", "one leaves, one is not deleted");
    assert.equal(nsChild(other, "cblGrp", "invitable")?.text, "false");
    assert.equal(nsChild(self, "cblGrp", "leavable")?.text, "false", "the last manager cannot leave");
    assert.equal(nsChild(other, "cblGrp", "leavable")?.text, "true");
    assert.equal(nsChild(other, "cbl", "when"), undefined);
  });

  it("lets the only member, a manager, leave (the web's leave follows the same rule)", async () => {
    const solo = await server.factories.group([alice], { name: "Solo" });
    const [self] = entriesOf((await members(`group=1:${solo.id}`)).xml);
    assert.equal(nsChild(self!, "cblGrp", "manager")?.text, "true");
    assert.equal(nsChild(self!, "cblGrp", "leavable")?.text, "true");
    const one = await members(`group=1:${solo.id}&user=${atomText(self!, "id") ?? ""}`);
    assert.equal(nsChild(entriesOf(one.xml)[0]!, "cblGrp", "leavable")?.text, "true");
  });

  it("says the caller may not invite or delete when the caller is no manager", async () => {
    const entries = entriesOf((await members(`group=1:${group.id}`, bob.token)).xml);
    const alicesEntry = byName(entries, "Alice Aoki");
    assert.ok(nsChild(alicesEntry, "atom", "link"), "others keep their links");
    assert.equal(nsChild(byName(entries, "Bob Baba"), "atom", "link"), undefined);
    assert.equal(attribute(nsChild(alicesEntry, "cblGrp", "deletable")!, "authority"), "false");
    assert.equal(attribute(nsChild(alicesEntry, "cblGrp", "invitable")!, "authority"), "false");
  });

  it("lists invitations with member-status=INVITE: label, empty author, expiry", async () => {
    const answer = await members(`group=1:${group.id}&member-status=INVITE`);
    await assertValidAtom(answer.text);
    assert.equal(nsChild(answer.xml, "cbl", "totalCount")?.text, "1");
    const [invite] = entriesOf(answer.xml);
    assert.equal(atomText(invite!, "title"), "Carol (invited)");
    assert.equal(atomText(invite!, "id"), `1:${inviteId}`);
    assert.equal(atomText(nsChild(invite!, "atom", "author")!, "name"), "");
    assert.equal(attribute(nsChild(invite!, "cbl", "when")!, "endTime"), "2027-01-01T00:00:00Z");
    assert.equal(nsChild(invite!, "cbl", "who"), undefined);
    assert.equal(nsChild(invite!, "cblPrfl", "familyKana"), undefined);
    assert.equal(nsChild(invite!, "cblGrp", "invitable")?.text, "true");
    assert.match(
      answer.text,
      /<cblGrp:invitable authority="true">true<\/cblGrp:invitable><cblGrp:deletable authority="true">true<\/cblGrp:deletable><cblGrp:leavable>false<\/cblGrp:leavable><cbl:when endTime="2027-01-01T00:00:00Z"\/>/,
    );
    assert.equal(entriesOf((await members(`group=1:${group.id}&member-status=join`)).xml).length, 2);
    assertError(await members(`group=1:${group.id}&member-status=LEFT`), 400, "INVALID_MEMBER_STATUS");
  });

  it("returns one member with user=, ignoring the other optional parameters", async () => {
    const answer = await members(
      `group=1:${group.id}&user=1:${inviteId}&member-status=JOIN&max-results=junk&unconfirmed=true`,
    );
    assert.equal(answer.status, 200, answer.text);
    await assertValidAtom(answer.text);
    assert.deepEqual(
      entriesOf(answer.xml).map((e) => atomText(e, "title")),
      ["Carol (invited)"],
    );
    assert.equal(nsChild(answer.xml, "cbl", "totalCount")?.text, "1");
    assertError(await members(`group=1:${group.id}&user=1:99999`), 404, "MEMBER_NOT_FOUND");
    assertError(await members(`group=1:${group.id}&user=bob`), 400, "INVALID_USER");
    const elsewhere = await server.factories.group([alice, outsider]);
    const [foreign] = entriesOf((await members(`group=1:${elsewhere.id}`)).xml);
    assertError(await members(`group=1:${group.id}&user=${atomText(foreign!, "id")}`), 404, "MEMBER_NOT_FOUND");
  });

  it("pages, and refuses non-members and missing groups", async () => {
    assert.equal(entriesOf((await members(`group=1:${group.id}&max-results=1`)).xml).length, 1);
    assert.equal(
      nsChild((await members(`group=1:${group.id}&max-results=1`)).xml, "cbl", "totalCount")?.text,
      "2",
      "the total, not the page",
    );
    assert.equal(entriesOf((await members(`group=1:${group.id}&start-index=2`)).xml).length, 0);
    assertError(await members(`group=1:${group.id}&max-results=0`), 400, "INVALID_MAX_RESULTS");
    assertError(await members(`group=1:${group.id}`, outsider.token), 403, "GROUP_NOT_JOINED");
    assertError(await members(""), 400, "PARAMETER_REQUIRED");
  });
});
