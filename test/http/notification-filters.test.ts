import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { hashToken } from "../../src/auth/token.js";
import type { Group } from "../../src/domain/group.js";
import { addMember, setNotify } from "../../src/services/member/member-admin.js";
import { createTaskAsOperator } from "../../src/services/task/task-admin.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { addTestFile } from "../support/files.js";
import { CLIENT_NS, assertError, nsChild } from "../support/http.js";
import { postMultipart } from "../support/multipart.js";
import { BoardClient, NotificationClient, entryWithId, field } from "../support/notifications.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("update notifications: filters, paging and do-not-notify (/api/notification/V2)", (backend) => {
  let server: TestServer;
  let fiona: TestUser;
  let wendy: TestUser;
  let outsider: TestUser;
  let one: Group;
  let two: Group;
  let notifications: NotificationClient;
  let board: BoardClient;
  /** The ids of fiona's notifications, newest first. */
  const ids = { topicA: "", taskB: "", fileC: "", membersOne: "", topicD: "", taskE: "" };
  const list = (query: string) => notifications.ids(fiona, query);

  async function task(group: Group, title: string): Promise<string> {
    const added = await createTaskAsOperator(server, {
      groupId: group.id,
      title,
      body: "",
      authorEmail: wendy.email,
      due: null,
      priority: "B",
      status: "NOT_STARTED",
      folderId: null,
    });
    return `GROUP,1:${group.id},TASK,1:${added.id}`;
  }

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    fiona = await f.user({ name: "Fiona" });
    wendy = await f.user({ name: "Wendy" });
    outsider = await f.user();
    one = await f.group([wendy, fiona], { name: "One" });
    two = await f.group([wendy, fiona], { name: "Two" });
    await f.group([outsider]);
    notifications = new NotificationClient(server);
    board = new BoardClient(server);
    const step = () => server.clock.advance(1000);
    ids.topicA = await board.create(wendy, one.id, "a");
    step();
    ids.taskB = await task(one, "b");
    step();
    const file = await addTestFile(server, one, wendy, { title: "c" });
    ids.fileC = `GROUP,1:${one.id},CABINET,1:${file.id}`;
    step();
    const hank = await f.user({ name: "Hank" });
    await addMember(server, { groupId: one.id, email: hank.email, manager: false });
    ids.membersOne = `GROUP,1:${one.id}`;
    step();
    ids.topicD = await board.create(wendy, two.id, "d");
    step();
    ids.taskE = await task(two, "e");
    step();
    await notifications.confirm(fiona, [ids.topicA, ids.taskE]);
  });
  after(() => server.close());

  it("lists everything newest first without filters", async () => {
    assert.deepEqual(await list(""), [ids.taskE, ids.topicD, ids.membersOne, ids.fileC, ids.taskB, ids.topicA]);
  });

  it("filters by each of the seven categories, in any letter case", async () => {
    assert.deepEqual(await list("category=BOARD"), [ids.topicD, ids.topicA]);
    assert.deepEqual(await list("category=board"), [ids.topicD, ids.topicA]);
    assert.deepEqual(await list("category=TASK"), [ids.taskE, ids.taskB]);
    assert.deepEqual(await list("category=CABINET"), [ids.fileC]);
    assert.deepEqual(await list("category=MEMBER_LIST"), [ids.membersOne]);
    for (const held of ["M_SCHEDULE", "G_SCHEDULE", "M_CHAT"])
      assert.deepEqual(await list(`category=${held}`), [], `${held}: areas this server does not hold`);
    assertError(await notifications.get(fiona, "category=CALENDAR"), 400, "INVALID_CATEGORY");
  });

  it("filters by unconfirmed and by group, in every form of the group id", async () => {
    assert.deepEqual(await list("unconfirmed=true"), [ids.topicD, ids.membersOne, ids.fileC, ids.taskB]);
    assert.deepEqual(await list("unconfirmed=True"), [ids.topicD, ids.membersOne, ids.fileC, ids.taskB]);
    assert.deepEqual(await list("unconfirmed=false"), await list(""), "only true filters");
    const inOne = [ids.membersOne, ids.fileC, ids.taskB, ids.topicA];
    assert.deepEqual(await list(`group=1:${one.id}`), inOne);
    assert.deepEqual(await list(`group=1%3A${one.id}`), inOne);
    assert.deepEqual(await list(`group=GROUP,1:${one.id}`), inOne);
    assertError(await notifications.get(fiona, "group=one"), 400, "INVALID_GROUP");
    assertError(await notifications.get(fiona, "group=1:999999"), 404, "GROUP_NOT_FOUND");
    assertError(await notifications.get(fiona, "group=9:9"), 404, "GROUP_NOT_FOUND");
    assertError(await notifications.get(fiona, `group=1:${one.id + 2}`), 403, "GROUP_NOT_JOINED");
  });

  it("combines the filters", async () => {
    assert.deepEqual(await list("unconfirmed=true&category=BOARD"), [ids.topicD]);
    assert.deepEqual(await list(`unconfirmed=true&group=1:${one.id}`), [ids.membersOne, ids.fileC, ids.taskB]);
    assert.deepEqual(await list(`category=TASK&group=1:${two.id}`), [ids.taskE]);
    assert.deepEqual(await list(`unconfirmed=true&category=TASK&group=1:${two.id}`), []);
    assert.deepEqual(await list(`unconfirmed=true&category=TASK&group=1:${one.id}`), [ids.taskB]);
    assert.deepEqual(
      await list(`unconfirmed=true&category=BOARD&group=1:${one.id}&include-rule-out=true&max-results=5`),
      [],
    );
  });

  it("pages with start-index and max-results", async () => {
    const all = await list("");
    assert.deepEqual(await list("max-results=2"), all.slice(0, 2));
    assert.deepEqual(await list("start-index=2&max-results=2"), all.slice(2, 4));
    assert.deepEqual(await list("start-index=4&max-results=100"), all.slice(4));
    assert.deepEqual(await list("start-index=6"), []);
    assert.deepEqual(await list("unconfirmed=true&start-index=1&max-results=2"), [ids.membersOne, ids.fileC]);
    assertError(await notifications.get(fiona, "max-results=0"), 400, "INVALID_MAX_RESULTS");
    assertError(await notifications.get(fiona, "start-index=-1"), 400, "INVALID_START_INDEX");
  });

  it("hides a do-not-notify group's notifications unless include-rule-out=true, and still confirms them", async () => {
    await setNotify(server, { groupId: one.id, email: fiona.email, value: false });
    try {
      assert.deepEqual(await list(""), [ids.taskE, ids.topicD]);
      assert.deepEqual(await list(`group=1:${one.id}`), []);
      assert.deepEqual(await list("unconfirmed=true"), [ids.topicD]);
      const everything = [ids.taskE, ids.topicD, ids.membersOne, ids.fileC, ids.taskB, ids.topicA];
      assert.deepEqual(await list("include-rule-out=true"), everything);
      assert.deepEqual(await list("include-rule-out=TRUE"), everything);
      assert.deepEqual(await list(`include-rule-out=true&group=1:${one.id}&category=TASK`), [ids.taskB]);
      assert.deepEqual(await list("include-rule-out=true&unconfirmed=true&max-results=2"), [
        ids.topicD,
        ids.membersOne,
      ]);
      assert.deepEqual(
        await notifications.ids(wendy, ""),
        [ids.membersOne],
        "another member's setting is theirs alone",
      );
      server.clock.advance(1000);
      const newer = await board.create(wendy, one.id, "still generated");
      assert.equal((await list("include-rule-out=true"))[0], newer, "still generated, only hidden");
      assert.equal((await notifications.confirm(fiona, [newer])).length, 1);
    } finally {
      await setNotify(server, { groupId: one.id, email: fiona.email, value: true });
    }
  });

  it("embeds a comment's files with embed-attachment=true, for applications that may read comments", async () => {
    server.clock.advance(1000);
    const xml = `<feed ${CLIENT_NS}><cbl:operation type="insert"/><id>${ids.topicD}</id><entry><summary type="text">see file</summary></entry></feed>`;
    const upload = await postMultipart(`${server.url}/api/comment/V2`, wendy.token, [
      { name: "default", text: xml },
      { name: "file0", fileName: "photo.bin", size: 10 },
    ]);
    assert.equal(upload.status, 200, upload.text);
    const entry = entryWithId(await notifications.list(fiona, "embed-attachment=true"), ids.topicD);
    const attachment = nsChild(entry, "cbl", "attachment")!;
    assert.deepEqual(
      ["fileName", "id", "size", "type"].map((name) => attachment.attributes.get(name)),
      ["photo.bin", `${ids.topicD},COMMENT,1,ATTACHMENT,1`, "10", "application/octet-stream"],
    );
    assert.equal(field(entry, "cblNtf", "commentId"), `${ids.topicD},COMMENT,1`);
    const readToken = "fiona-read-level-token";
    await server.store.transaction(async (tx) => {
      const app = await tx.apps.insert({
        name: "Reader",
        consumerKey: "reader-key",
        consumerSecret: "s",
        accessLevel: "read",
        createdAt: server.clock.now(),
      });
      await tx.tokens.insert({
        userId: fiona.id,
        appId: app.id,
        tokenHash: hashToken(readToken),
        secret: "s",
        label: "",
        createdAt: server.clock.now(),
      });
    });
    const asReader = new NotificationClient(server);
    const readerEntry = entryWithId(
      await asReader.list({ ...fiona, token: readToken }, "embed-attachment=true"),
      ids.topicD,
    );
    assert.equal(nsChild(readerEntry, "cbl", "attachment"), undefined, "a comment's files are comment contents");
  });
});
