// The administration's groups, status and two-factor requirement over real HTTP, on every engine:
// the list (search, paging, member counts), a new group at the name's length limit and one past
// it, renaming, managers (the last one kept), archiving (every write refused on the web, reads and
// the notice shown) and restoring, deletion (a wrong name changes nothing; the right one removes
// the rows and the stored bytes), the audit rows, the status page, and requiring two-factor sign-in.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { LIMITS } from "../../src/domain/limits.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { addTestFile } from "../support/files.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describeEachBackend("web: the administration's groups and status", (backend) => {
  let server: TestServer;
  let admin: TestUser;
  let manager: TestUser;
  let member: TestUser;
  let adminWeb: WebClient;
  let managerWeb: WebClient;
  let group: Group;

  before(async () => {
    server = await startTestServer(backend);
    admin = await server.factories.user({ name: "Ada Admin" });
    manager = await server.factories.user({ name: "Mana Ger" });
    member = await server.factories.user({ name: "Mem Ber" });
    await server.store.transaction((tx) => tx.users.update(admin.id, { siteAdmin: true }));
    group = await server.factories.group([manager, member], { name: "Garden Club", managers: [manager] });
    await server.factories.group([member], { name: "Chess Club" });
    adminWeb = new WebClient(server.url);
    managerWeb = new WebClient(server.url);
    await adminWeb.signIn(admin.email);
    await managerWeb.signIn(manager.email);
  });
  after(() => server.close());

  const audit = () => server.store.read((tx) => tx.auditEvents.list({ limit: 500 }));
  const groupPath = (id: number) => `/admin/groups/1:${id}`;
  const findGroup = (id: number) => server.store.read((tx) => tx.groups.findById(id));

  it("lists, searches and pages the groups with their member counts", async () => {
    const list = await adminWeb.get("/admin/groups");
    assert.equal(list.status, 200);
    await assertValidHtml(list.html, "groups");
    assert.match(list.html, />Garden Club<\/a><\/td>\s*<td>2<\/td>/);
    const found = await adminWeb.get("/admin/groups?q=chess");
    assert.match(found.html, />Chess Club<\/a>/);
    assert.doesNotMatch(found.html, />Garden Club<\/a>/);
    assert.match((await adminWeb.get("/admin/groups?q=%25")).html, /No group matches/);
    const later = await adminWeb.get(`/admin/groups?after=${group.id}`);
    assert.doesNotMatch(later.html, />Garden Club<\/a>/);
    assert.match(later.html, />Chess Club<\/a>/);
    await assertValidHtml((await adminWeb.get(groupPath(group.id))).html, "one group");
    await assertValidHtml((await adminWeb.get("/admin/groups/new")).html, "new group");
  });

  it("creates a group with a name at the limit and refuses one past it, changing nothing", async () => {
    const atLimit = "g".repeat(LIMITS.groupNameMaxChars);
    await adminWeb.get("/admin/groups/new");
    const past = await adminWeb.post("/admin/groups/new", {
      name: `${atLimit}x`,
      summary: "",
      manager: member.email,
    });
    assert.equal(past.status, 400);
    assert.match(past.html, /role="alert"/);
    const groupsBefore = await server.store.read((tx) => tx.groups.listAll());
    assert.ok(!groupsBefore.some((g) => g.name.startsWith("ggg")), "nothing made");
    await adminWeb.get("/admin/groups/new");
    const unknown = await adminWeb.post("/admin/groups/new", {
      name: "Nobody's",
      summary: "",
      manager: "no@x.example",
    });
    assert.equal(unknown.status, 400);
    await adminWeb.get("/admin/groups/new");
    const made = await adminWeb.post("/admin/groups/new", { name: atLimit, summary: "", manager: member.email });
    assert.equal(made.status, 303, made.html.slice(0, 300));
    const id = Number(/\/admin\/groups\/1:(\d+)/.exec(made.location ?? "")?.[1]);
    const created = await findGroup(id);
    assert.equal(created?.name, atLimit);
    const membership = await server.store.read((tx) => tx.memberships.findJoined(id, member.id));
    assert.equal(membership?.manager, true, "the first manager");
    assert.ok((await audit()).some((r) => r.action === "group.create" && r.target_id === String(id)));
  });

  it("renames a group, refusing an empty name", async () => {
    await adminWeb.get(groupPath(group.id));
    const empty = await adminWeb.post(`${groupPath(group.id)}/rename`, { name: "  " });
    assert.equal(empty.status, 400);
    assert.equal((await findGroup(group.id))?.name, "Garden Club");
    await adminWeb.get(groupPath(group.id));
    assert.equal((await adminWeb.post(`${groupPath(group.id)}/rename`, { name: "Garden Society" })).status, 303);
    assert.equal((await findGroup(group.id))?.name, "Garden Society");
    assert.ok((await audit()).some((r) => r.action === "group.update" && r.target_id === String(group.id)));
  });

  it("changes managers and keeps the last one", async () => {
    const managerMember = await server.store.read((tx) => tx.memberships.findJoined(group.id, manager.id));
    const plainMember = await server.store.read((tx) => tx.memberships.findJoined(group.id, member.id));
    assert.ok(managerMember && plainMember);
    await adminWeb.get(groupPath(group.id));
    const last = await adminWeb.post(`${groupPath(group.id)}/manager`, {
      member: `1:${managerMember.id}`,
      role: "member",
    });
    assert.equal(last.status, 400);
    assert.match(last.html, /last manager/);
    await adminWeb.get(groupPath(group.id));
    const grant = await adminWeb.post(`${groupPath(group.id)}/manager`, {
      member: `1:${plainMember.id}`,
      role: "manager",
    });
    assert.equal(grant.status, 303);
    await adminWeb.get(groupPath(group.id));
    await adminWeb.post(`${groupPath(group.id)}/manager`, { member: `1:${plainMember.id}`, role: "member" });
    assert.equal((await server.store.read((tx) => tx.memberships.findJoined(group.id, member.id)))?.manager, false);
    const rows = (await audit()).filter((r) => r.action === "member.role");
    assert.ok(rows.some((r) => r.outcome === "refused") && rows.some((r) => r.outcome === "done"));
  });

  it("archives a group: pages say so, reads work, every web write is refused with GROUP_ARCHIVED; restores it", async () => {
    const topic = await server.factories.topic(group, manager, { title: "Old news" });
    await adminWeb.get(groupPath(group.id));
    assert.equal((await adminWeb.post(`${groupPath(group.id)}/archive`, {})).status, 303);
    assert.notEqual((await findGroup(group.id))?.archivedAt, null);
    const board = await managerWeb.get(`/g/1:${group.id}/board`);
    assert.equal(board.status, 200);
    assert.match(board.html, /This group is archived/);
    assert.match(board.html, /Old news/);
    assert.equal((await managerWeb.get(`/g/1:${group.id}/board/1:${topic.id}`)).status, 200);
    const writes: [string, Record<string, string>][] = [
      [`/g/1:${group.id}/board/new`, { title: "New", body: "x" }],
      [`/g/1:${group.id}/tasks/new`, { title: "New task", priority: "B", status: "NOT_STARTED", zone: "UTC" }],
      [`/g/1:${group.id}/members/invite`, { email: "someone@example.com", label: "Someone" }],
      [`/g/1:${group.id}/leave`, {}],
    ];
    for (const [path, fields] of writes) {
      await managerWeb.get(`/g/1:${group.id}/board`);
      const answer = await managerWeb.post(path, fields);
      assert.equal(answer.status, 403, `${path}: ${answer.status} ${answer.html.slice(0, 200)}`);
      assert.match(answer.html, /archived/, path);
    }
    await managerWeb.get(`/g/1:${group.id}/files`);
    const form = new FormData();
    form.set("_csrf", managerWeb.csrf());
    form.set("title", "Plan");
    form.append("file", new Blob([Buffer.from("v1")]), "plan.txt");
    const uploaded = await managerWeb.postMultipart(`/g/1:${group.id}/files`, form);
    assert.equal(uploaded.status, 403, `file upload: ${uploaded.html.slice(0, 200)}`);
    const files = await server.store.read((tx) => tx.files.list(group.id, { kind: "all" }, { offset: 0, limit: 10 }));
    assert.equal(files.length, 0, "no file stored");
    const topics = await server.store.read((tx) => tx.topics.list(group.id, { kind: "all" }, { offset: 0, limit: 10 }));
    assert.deepEqual(
      topics.map((t) => t.title),
      ["Old news"],
    );
    assert.ok(await server.store.read((tx) => tx.memberships.findJoined(group.id, manager.id)), "still a member");
    assert.match((await adminWeb.get("/admin/groups")).html, /Archived/);
    await adminWeb.get(groupPath(group.id));
    assert.equal((await adminWeb.post(`${groupPath(group.id)}/restore`, {})).status, 303);
    assert.equal((await findGroup(group.id))?.archivedAt, null);
    assert.doesNotMatch((await managerWeb.get(`/g/1:${group.id}/board`)).html, /This group is archived/);
    const actions = (await audit()).filter((r) => r.target_id === String(group.id)).map((r) => r.action);
    assert.ok(actions.includes("group.archive") && actions.includes("group.restore"));
  });

  it("deletes a group only when its name is typed, with its content and stored bytes", async () => {
    const doomed = await server.factories.group([member], { name: "Doomed" });
    const topic = await server.factories.topic(doomed, member, { title: "Going" });
    await server.factories.comment(topic, member, { body: "bye" });
    const file = await addTestFile(server, doomed, member, { fileName: "a.txt", bytes: Buffer.from("bytes") });
    await adminWeb.get(groupPath(doomed.id));
    const wrong = await adminWeb.post(`${groupPath(doomed.id)}/delete`, { confirm: "doomed" });
    assert.equal(wrong.status, 400);
    assert.match(wrong.html, /Type the group(?:'|&#39;)s name exactly/);
    assert.ok(await findGroup(doomed.id), "a wrong name deletes nothing");
    assert.ok(await server.store.read((tx) => tx.topics.findById(topic.id)));
    await adminWeb.get(groupPath(doomed.id));
    const done = await adminWeb.post(`${groupPath(doomed.id)}/delete`, { confirm: "Doomed" });
    assert.equal(done.status, 303);
    assert.match((await adminWeb.get(done.location ?? "")).html, /The group Doomed was deleted/);
    assert.equal(await findGroup(doomed.id), undefined);
    assert.equal(await server.store.read((tx) => tx.topics.findById(topic.id)), undefined);
    assert.equal(await server.store.read((tx) => tx.files.findById(file.id)), undefined);
    assert.equal(await server.blobs.open(file.current.blobKey), undefined, "the stored bytes are gone");
    const row = (await audit()).find((r) => r.action === "group.delete" && r.outcome === "done");
    assert.equal(row?.target_id, String(doomed.id));
    assert.equal((await adminWeb.get(groupPath(doomed.id))).status, 404);
  });

  it("shows the status page", async () => {
    const group2 = await server.factories.group([member], { name: "Files Club" });
    await addTestFile(server, group2, member, { bytes: Buffer.alloc(1000, 1) });
    const answer = await adminWeb.get("/admin/status");
    assert.equal(answer.status, 200);
    await assertValidHtml(answer.html, "status");
    assert.match(answer.html, new RegExp(backend === "postgres" ? "postgres" : "sqlite"));
    assert.match(answer.html, />Files Club<\/a><\/td><td>1,000<\/td>/);
    assert.match(answer.html, /Waiting to be sent/);
  });

  it("requires two-factor sign-in of an account, with an audit row", async () => {
    const path = `/admin/users/1:${member.id}`;
    const page = await adminWeb.get(path);
    assert.match(page.html, /Require two-factor sign-in/);
    assert.equal((await adminWeb.post(`${path}/require-two-factor`, {})).status, 303);
    assert.equal((await server.store.read((tx) => tx.twoFactor.state(member.id))).requiredByAdmin, true);
    assert.match((await adminWeb.get(path)).html, /Stop requiring two-factor sign-in/);
    assert.equal((await adminWeb.post(`${path}/unrequire-two-factor`, {})).status, 303);
    assert.equal((await server.store.read((tx) => tx.twoFactor.state(member.id))).requiredByAdmin, false);
    const rows = (await audit()).filter((r) => r.action === "user.update" && r.target_id === String(member.id));
    assert.equal(rows.length, 2);
  });

  it("refuses a group manager every /admin/groups form, changing nothing", async () => {
    await managerWeb.get("/settings");
    for (const act of ["archive", "delete", "rename"]) {
      const answer = await managerWeb.post(`${groupPath(group.id)}/${act}`, { confirm: "Garden Society", name: "X" });
      assert.equal(answer.status, 403, act);
    }
    const kept = await findGroup(group.id);
    assert.equal(kept?.name, "Garden Society");
    assert.equal(kept?.archivedAt, null);
  });
});
