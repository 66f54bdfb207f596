// A group's part of the audit log on the web (`/g/1:n/audit`): its managers read the group's rows,
// newest first, 50 a page; its ordinary members and outsiders are refused; rows of other groups
// never show.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { COMMAND_LINE_ACTOR } from "../../src/domain/audit.js";
import type { Group } from "../../src/domain/group.js";
import { recordAudit } from "../../src/services/audit/audit-log.js";
import { GROUP_AUDIT_PAGE } from "../../src/services/audit/group-audit.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describeEachBackend("web: a group's audit log", (backend) => {
  let server: TestServer;
  let manager: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let group: Group;
  let other: Group;

  before(async () => {
    server = await startTestServer(backend);
    manager = await server.factories.user({ name: "Mia" });
    member = await server.factories.user({ name: "Ned" });
    outsider = await server.factories.user({ name: "Oz" });
    group = await server.factories.group([manager, member], { name: "Audited" });
    other = await server.factories.group([outsider], { name: "Elsewhere" });
    // One page and one row more: rows 1..51 of this group, and one of another group.
    await server.store.transaction(async (tx) => {
      for (let n = 1; n <= GROUP_AUDIT_PAGE + 1; n++) {
        await recordAudit(tx, server.clock, {
          action: "member.role",
          actor: { ...COMMAND_LINE_ACTOR, address: "192.0.2.1" },
          target: { kind: "membership", id: String(n), label: `Row ${n}` },
          groupId: group.id,
          details: { n },
        });
      }
      await recordAudit(tx, server.clock, {
        action: "group.update",
        actor: COMMAND_LINE_ACTOR,
        target: { kind: "group", id: String(other.id), label: "Other group's row" },
        groupId: other.id,
      });
    });
  });
  after(() => server.close());

  it("shows its managers the group's rows, newest first, 50 a page, and the older page after", async () => {
    const web = new WebClient(server.url);
    await web.signIn(manager.email);
    const members = await web.get(`/g/1:${group.id}/members`);
    assert.match(members.html, new RegExp(`href="/g/1:${group.id}/audit"`), "linked from the members page");
    const first = await web.get(`/g/1:${group.id}/audit`);
    assert.equal(first.status, 200);
    await assertValidHtml(first.html, "audit page");
    const labels = [...first.html.matchAll(/<bdi>(Row \d+)<\/bdi>/g)].map((m) => m[1]);
    assert.equal(labels.length, GROUP_AUDIT_PAGE);
    assert.equal(labels[0], `Row ${GROUP_AUDIT_PAGE + 1}`);
    assert.equal(labels.at(-1), "Row 2");
    assert.match(first.html, /192\.0\.2\.1/);
    assert.doesNotMatch(first.html, /Other group/);
    const older = /rel="next" href="([^"]+)"/.exec(first.html)?.[1]?.replace(/&amp;/g, "&");
    assert.ok(older, "a link to the older page");
    const second = await web.get(older);
    assert.deepEqual(
      [...second.html.matchAll(/<bdi>(Row \d+)<\/bdi>/g)].map((m) => m[1]),
      ["Row 1"],
    );
    assert.doesNotMatch(second.html, /rel="next"/, "no page after the last");
    assert.match(second.html, /rel="first"/);
    assert.equal((await web.get(`/m/g/1:${group.id}/audit`)).status, 200, "the phone variant");
  });

  it("refuses an ordinary member (403), an outsider (403) and a group that does not exist (404)", async () => {
    const web = new WebClient(server.url);
    await web.signIn(member.email);
    const refused = await web.get(`/g/1:${group.id}/audit`);
    assert.equal(refused.status, 403);
    assert.doesNotMatch(refused.html, /Row \d/);
    const stranger = new WebClient(server.url);
    await stranger.signIn(outsider.email);
    assert.equal((await stranger.get(`/g/1:${group.id}/audit`)).status, 403);
    assert.equal((await stranger.get(`/g/1:999999/audit`)).status, 404);
  });

  it("refuses a `before` that is not a row id, and answers an id past every row with an empty page", async () => {
    const web = new WebClient(server.url);
    await web.signIn(manager.email);
    for (const bad of ["0", "-1", "x", "1.5", "9".repeat(16)])
      assert.equal((await web.get(`/g/1:${group.id}/audit?before=${bad}`)).status, 400, bad);
    const empty = await web.get(`/g/1:${group.id}/audit?before=1`);
    assert.equal(empty.status, 200);
    assert.match(empty.html, /Nothing has been recorded/);
    assert.equal((await web.get(`/g/1:${group.id}/audit?before=${"9".repeat(15)}`)).status, 200);
  });
});
