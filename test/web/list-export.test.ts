// The downloads of a group's lists (`/g/1:n/tasks/export`, `/g/1:n/members/export`): CSV with a
// byte order mark and CRLF, the list page's tasks under its filters (never the trash unless asked),
// the joined members with the addresses a fellow member is shown, for members only.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { LIMITS } from "../../src/domain/limits.js";
import { describeEachBackend } from "../support/backends.js";
import { rawRows } from "../support/earlier-database.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient } from "../support/web.js";

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

describeEachBackend("web: a group's tasks and members as CSV", (backend) => {
  let server: TestServer;
  let hana: TestUser;
  let ken: TestUser;
  let gone: TestUser;
  let outsider: TestUser;
  let group: Group;
  let g: string;

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    hana = await f.user({ name: "山田 花子", email: "hana@example.com" });
    ken = await f.user({ name: "Ken", email: "ken@example.com" });
    gone = await f.user({ name: "Gone", email: "gone@example.com" });
    outsider = await f.user({ name: "Oscar" });
    group = await f.group([hana, ken, gone], { name: "営業部/東京" });
    await f.group([outsider], { name: "Elsewhere" });
    g = `/g/1:${group.id}`;
    await server.store.transaction(async (tx) => {
      await tx.users.update(hana.id, { familyKana: "やまだ", givenKana: "はなこ", timeZone: "Asia/Tokyo" });
      await tx.users.update(gone.id, { disabledAt: server.clock.now() });
    });
    const folder = await f.folder(group, "TASK", "会議");
    await f.task(group, hana, {
      title: "見積もり, 第1版",
      assigneeId: ken.id,
      dueAt: Date.UTC(2026, 3, 1),
      allDay: true,
      priority: "S",
      folderId: folder,
    });
    await f.task(group, ken, {
      title: '=HYPERLINK("http://evil.example")',
      status: "COMPLETED",
      dueAt: Date.UTC(2026, 3, 1, 23, 5),
    });
    await f.task(group, ken, { title: "In the trash", trashed: true });
  });
  after(() => server.close());

  const lines = (bytes: Buffer) => bytes.subarray(BOM.length).toString("utf8").split("\r\n");

  it("downloads the task list as the page lists it, linked from the page with its filters", async () => {
    const web = new WebClient(server.url);
    await web.signIn(ken.email);
    const page = await web.get(`${g}/tasks?state=COMPLETED`);
    assert.match(page.html, new RegExp(`href="${g}/tasks/export\\?state=COMPLETED" download`));
    const answer = await web.get(`${g}/tasks/export`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get("content-type"), "text/csv; charset=utf-8");
    assert.equal(answer.headers.get("x-content-type-options"), "nosniff");
    assert.equal(
      answer.headers.get("content-disposition"),
      `attachment; filename="______-tasks.csv"; filename*=UTF-8''${encodeURIComponent("営業部_東京-tasks.csv")}`,
    );
    assert.deepEqual([...answer.bytes.subarray(0, 3)], [...BOM], "a byte order mark first");
    const rows = lines(answer.bytes);
    assert.equal(rows[0], "id,title,status,priority,assignee,due,created,creator,folder,url");
    assert.equal(rows.length, 4, "two tasks and the final line end; the trash is left out");
    assert.equal(rows.at(-1), "");
    assert.match(
      rows[1] ?? "",
      /^"GROUP,1:\d+,TASK,1:\d+","'=HYPERLINK\(""http:\/\/evil.example""\)",COMPLETED,B,,2026-04-01 23:05,/,
    );
    assert.match(
      rows[2] ?? "",
      /^"GROUP,1:\d+,TASK,1:\d+","見積もり, 第1版",NOT_STARTED,S,Ken,2026-04-01,\d{4}-\d\d-\d\d \d\d:\d\d,山田 花子,会議,http:\/\/[^,]+\/g\/1:\d+\/tasks\/1:\d+$/,
    );
    const done = lines((await web.get(`${g}/tasks/export?state=COMPLETED`)).bytes);
    assert.equal(done.length, 3, "the page's state filter");
    const trash = lines((await web.get(`${g}/tasks/export?folder=TRASH`)).bytes);
    assert.match(trash[1] ?? "", /In the trash/, "the trash when it is asked for, as the page shows it");
  });

  it("writes times in the reader's zone", async () => {
    const web = new WebClient(server.url);
    await web.signIn(hana.email);
    const rows = lines((await web.get(`${g}/tasks/export?state=COMPLETED`)).bytes);
    assert.match(rows[1] ?? "", /,2026-04-02 08:05,/, "23:05 UTC is 08:05 the next day in Tokyo");
  });

  it("refuses a due range the page refuses, and a folder of no such id", async () => {
    const web = new WebClient(server.url);
    await web.signIn(ken.email);
    const bad = await web.get(`${g}/tasks/export?from=2026-13-01`);
    assert.equal(bad.status, 400);
    assert.match(bad.html, /must be a date/);
    assert.equal((await web.get(`${g}/tasks/export?folder=1:999999`)).status, 404);
    const page = await web.get(`${g}/tasks?from=2026-13-01`);
    assert.doesNotMatch(page.html, /tasks\/export/, "no download of a refused filter");
  });

  it("downloads the joined members in the order they joined, without a disabled account's address", async () => {
    const web = new WebClient(server.url);
    await web.signIn(ken.email);
    const page = await web.get(`${g}/members`);
    assert.match(page.html, new RegExp(`href="${g}/members/export" download`));
    const answer = await web.get(`${g}/members/export`);
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get("content-disposition") ?? "", /filename\*=UTF-8''%E5%96%B6.*-members\.csv$/);
    assert.deepEqual([...answer.bytes.subarray(0, 3)], [...BOM]);
    const rows = lines(answer.bytes);
    assert.deepEqual(
      rows.map((row) => row.replace(/\d{4}-\d\d-\d\d \d\d:\d\d$/, "T")),
      [
        "name,reading,email,role,joined",
        "山田 花子,やまだ はなこ,hana@example.com,manager,T",
        "Ken,,ken@example.com,member,T",
        "Gone,,,member,T",
        "",
      ],
    );
  });

  it("refuses both downloads to a non-member as the pages do, and answers 404 for no such group", async () => {
    const web = new WebClient(server.url);
    await web.signIn(outsider.email);
    for (const path of [`${g}/tasks/export`, `${g}/members/export`]) {
      const answer = await web.get(path);
      assert.equal(answer.status, 403, path);
      assert.doesNotMatch(answer.html, /営業部|見積もり|hana@example/);
      assert.equal((await web.get(path.replace(`1:${group.id}`, "1:999999"))).status, 404);
    }
    const signedOut = await new WebClient(server.url).get(`${g}/tasks/export`);
    assert.equal(signedOut.status, 303, "signed out: to the sign-in page");
  });

  it(`writes at most ${LIMITS.taskExportRowsMax} tasks, the most recently changed`, async () => {
    const big = await server.factories.group([ken], { name: "Big" });
    // One statement through the driver: ten thousand inserts one by one take most of a minute on PostgreSQL.
    const made = await rawRows(
      server.storeConfig,
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${LIMITS.taskExportRowsMax + 1})
       INSERT INTO tasks (group_id, sequence, title, summary, author_id, assignee_id, due_at, all_day, priority,
                          status, folder_id, trashed, created_at, updated_at)
       SELECT ${big.id}, i, 'Task ' || i, '', ${ken.id}, NULL, NULL, 0, 'B', 'NOT_STARTED', NULL, 0, i, i FROM n
       RETURNING id`,
    );
    assert.equal(made.length, LIMITS.taskExportRowsMax + 1);
    const web = new WebClient(server.url);
    await web.signIn(ken.email);
    const rows = lines((await web.get(`/g/1:${big.id}/tasks/export`)).bytes);
    assert.equal(rows.length, LIMITS.taskExportRowsMax + 2, "the header, the rows and the last line end");
    assert.match(rows[1] ?? "", /,Task 10001,/);
    assert.ok(!rows.some((row) => row.includes(",Task 1,")), "the oldest change is the one left out");
  });
});
