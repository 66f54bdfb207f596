import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, it } from "node:test";
import type { ExportFile } from "../../src/domain/cybozulive/bundle.js";
import { ImportFileError } from "../../src/domain/cybozulive/errors.js";
import type { ContentRef } from "../../src/domain/item-id.js";
import { insertAccount } from "../../src/services/account/account-write.js";
import { insertComment } from "../../src/services/comment/comment.js";
import type { ServiceContext } from "../../src/services/context.js";
import { type ImportReport, importCybozuLive } from "../../src/services/import/cybozulive.js";
import { MISSING_ATTACHMENTS_NOTE } from "../../src/services/import/cybozulive-plan.js";
import { ROOM_DESCRIPTION_LABEL } from "../../src/services/import/cybozulive-plan-chat.js";
import { type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";
import { TestClock } from "../support/clock.js";

const FIXTURES = resolve(import.meta.dirname, "../fixtures/cybozulive");
const filesOf = (dir: string): ExportFile[] =>
  readdirSync(dir).map((name) => ({ name, bytes: readFileSync(join(dir, name)) }));
const TOKYO = "Asia/Tokyo";
const utc = (text: string) => Date.parse(text);

describeEachBackend("kairan import cybozulive: the service", (backend) => {
  let test: TestStore;
  let ctx: ServiceContext;
  let hanakoId: number;
  before(async () => {
    test = await openTestStore(backend);
    ctx = { store: test.store, blobs: undefined as never, clock: new TestClock() };
    const hanako = await test.store.transaction((tx) =>
      insertAccount(
        tx,
        { name: "Hanako S.", email: "hanako@example.com", familyKana: "", givenKana: "", passwordHash: "x" },
        1,
      ),
    );
    hanakoId = hanako.id;
  });
  after(() => test.close());

  /** Every table's row count that an import writes to, to show a run changed nothing. */
  async function snapshot(): Promise<Record<string, number>> {
    return test.store.read(async (tx) => {
      const groups = await tx.groups.listAll();
      const keys = await Promise.all(groups.map((group) => tx.importKeys.listOf(group.id)));
      return {
        users: (await tx.users.list()).length,
        groups: groups.length,
        keys: keys.reduce((sum, map) => sum + map.size, 0),
      };
    });
  }

  const japanese = (options: { dryRun?: boolean; name?: string } = {}) =>
    importCybozuLive(ctx, {
      files: filesOf(join(FIXTURES, "ja-cp932")),
      target: { groupName: options.name ?? "サイボウズLiveの移行" },
      timeZone: TOKYO,
      dryRun: options.dryRun ?? false,
    });

  const expectedCounts = {
    topics: 3,
    comments: 5,
    tasks: 4,
    events: 4,
    accounts: 4,
    members: 5,
    chatRooms: 1,
    chatMessages: 4,
  };
  const none = { ...expectedCounts, ...Object.fromEntries(Object.keys(expectedCounts).map((key) => [key, 0])) };
  let first: ImportReport;

  it("a dry run reports what would be made, and every problem, and writes nothing", async () => {
    const before = await snapshot();
    const dry = await japanese({ dryRun: true });
    assert.deepEqual(await snapshot(), before);
    assert.equal(dry.dryRun, true);
    assert.deepEqual(dry.group, { id: null, name: "サイボウズLiveの移行", created: true });
    assert.deepEqual(dry.created, expectedCounts);
    assert.deepEqual(dry.alreadyImported, none);
  });

  it("imports the Japanese Windows-31J export into a new group: counts and problems", async () => {
    first = await japanese();
    assert.equal(first.group.created, true);
    assert.deepEqual(first.created, expectedCounts);
    assert.deepEqual(first.problems.map((p) => [p.kind, p.file, p.line]).sort(), [
      ["AMBIGUOUS_PERSON", "live_メンバー名簿_20180305.csv", 4],
      ["ATTACHMENTS_NOT_IN_EXPORT", "live_イベント_20180305.csv", 8],
      ["ATTACHMENTS_NOT_IN_EXPORT", "live_掲示板_20180305.csv", 8],
      ["ATTACHMENTS_NOT_IN_EXPORT", "チャット_雑談.txt", 8],
      ["EMPTY_COMMENT", "live_掲示板_20180305.csv", 3],
      ["EMPTY_COMMENT", "チャット_雑談.txt", 13],
      ["EXTRA_ASSIGNEES", "live_ToDoリスト_20180305.csv", 8],
      ["PERSON_WITHOUT_ACCOUNT", "live_メンバー名簿_20180305.csv", 3],
      ["UNMATCHED_PERSON", "live_掲示板_20180305.csv", 30],
      ["WITHDRAWN_PERSON", "live_掲示板_20180305.csv", 19],
    ]);
  });

  it("keeps authors, times, comment order, and marks missing attachments", async () => {
    const groupId = first.group.id ?? 0;
    await test.store.read(async (tx) => {
      const keys = await tx.importKeys.listOf(groupId);
      const topic = await tx.topics.findById(keys.get("cybozulive:topic:1:100") ?? 0);
      assert.equal(topic?.authorId, hanakoId, "matched by the member list's address");
      assert.equal(topic?.title, "週次ミーティング");
      assert.ok(topic?.body.endsWith(`[file:1]\n\n${MISSING_ATTACHMENTS_NOTE}`));
      assert.equal(topic?.publishedAt, utc("2018-03-01T04:48:00Z"), "13:48 in Tokyo");
      assert.equal(topic?.updatedAt, utc("2018-03-02T00:10:00Z"));
      const ref: ContentRef = { kind: "BOARD", groupId, id: topic?.id ?? 0 };
      const comments = (await tx.comments.listAll([ref])).reverse();
      assert.deepEqual(
        comments.map((c) => [c.number, c.authorName, new Date(c.createdAt).toISOString()]),
        [
          [1, "Hanako S.", "2018-03-01T05:05:00.000Z"],
          [2, "(サービス退会者)", "2018-03-01T09:00:00.000Z"],
          [3, "Taro Sato", "2018-03-02T00:10:00.000Z"],
        ],
      );
      assert.equal(comments[0]?.body, "よろしくお願いします。\n二行目");
      const taro = await tx.users.findByEmail("taro@example.com");
      assert.equal(await tx.users.isDisabled(taro?.id ?? 0), true, "a placeholder cannot sign in");
      assert.ok(await tx.memberships.findJoined(groupId, taro?.id ?? 0), "and is a member, to be assigned tasks");
      const audit = await tx.auditEvents.list({ groupId, limit: 100 });
      assert.deepEqual(
        ["group.create", "user.create", "member.add"].map((action) => audit.filter((r) => r.action === action).length),
        [1, 4, 5],
        "the group, the placeholders and the members are in the audit log",
      );
    });
  });

  it("numbers a comment written after the import after the imported ones", async () => {
    const groupId = first.group.id ?? 0;
    const comment = await test.store.transaction(async (tx) => {
      const id = (await tx.importKeys.listOf(groupId)).get("cybozulive:topic:1:100") ?? 0;
      const parent: ContentRef = { kind: "BOARD", groupId, id };
      return insertComment(tx, { parent, authorId: hanakoId, body: "later", replyTo: null, at: Date.now() });
    });
    assert.equal(comment.number, 4);
  });

  it("imports a chat room: its messages oldest first with authors and times, its description first, no one notified", async () => {
    const groupId = first.group.id ?? 0;
    await test.store.read(async (tx) => {
      const keys = await tx.importKeys.listOf(groupId);
      const roomKey = [...keys.keys()].find((key) => key.startsWith("cybozulive:chat:") && !key.includes("#"));
      const roomId = keys.get(roomKey ?? "") ?? 0;
      const taro = await tx.users.findByEmail("taro@example.com");
      const room = await tx.chat.room(roomId, hanakoId);
      assert.deepEqual(
        [room?.type, room?.title, room?.creatorId, room?.unconfirmed, room?.lastNumber],
        ["THEME", "雑談", hanakoId, 0, 4],
      );
      assert.equal(room?.createdAt, utc("2018-03-01T09:00:00Z"), "the first message's time");
      assert.equal(room?.activityAt, utc("2018-03-02T03:30:00Z"), "the last message's time");
      const messages = (await tx.chat.messages(roomId, { offset: 0, limit: 10 })).reverse();
      assert.deepEqual(
        messages.map((m) => [m.number, m.authorId, new Date(m.createdAt).toISOString()]),
        [
          [1, hanakoId, "2018-03-01T09:00:00.000Z"],
          [2, hanakoId, "2018-03-01T09:00:00.000Z"],
          [3, taro?.id, "2018-03-01T09:05:00.000Z"],
          [4, hanakoId, "2018-03-02T03:30:00.000Z"],
        ],
      );
      assert.equal(messages[0]?.body, `${ROOM_DESCRIPTION_LABEL}\n気軽にどうぞ\n業務連絡は掲示板へ`);
      assert.equal(messages[2]?.body, `了解です。\n${"-".repeat(81)}\n明日もよろしく`);
      assert.equal(messages[3]?.body, `資料です [file:1]\n\n${MISSING_ATTACHMENTS_NOTE}`);
      const members = (await tx.chat.members([roomId])).get(roomId) ?? [];
      assert.deepEqual(
        members.map((m) => [m.userId, m.unconfirmed]).sort(),
        [
          [hanakoId, 0],
          [taro?.id ?? 0, 0],
        ].sort(),
      );
    });
  });

  it("imports tasks with status, priority, assignee and due dates, and events all-day or timed", async () => {
    const groupId = first.group.id ?? 0;
    await test.store.read(async (tx) => {
      const keys = await tx.importKeys.listOf(groupId);
      const task = async (id: string) => tx.tasks.findById(keys.get(`cybozulive:task:${id}`) ?? 0);
      const held = await task("1:201");
      assert.deepEqual(
        [held?.status, held?.priority, held?.assigneeName, held?.allDay, held?.dueAt],
        ["ON_HOLD", "B", "Taro Sato", false, utc("2018-03-09T00:30:00Z")],
      );
      assert.match(held?.body ?? "", /担当者 \(Assignees\): Taro Sato, 鈴木 花子$/);
      const started = await task("1:200");
      assert.deepEqual(
        [started?.status, started?.priority, started?.assigneeId, started?.allDay, started?.dueAt],
        ["IN_PROGRESS", "A", hanakoId, true, utc("2018-03-10T00:00:00Z")],
      );
      assert.equal((await task("1:202"))?.status, "COMPLETED");
      const events = await tx.events.findByIds(
        [...keys].filter(([key]) => key.startsWith("cybozulive:event:") && !key.includes("#")).map(([, id]) => id),
      );
      const byTitle = new Map(events.map((event) => [event.title, event]));
      const allDay = byTitle.get("終日の予定");
      assert.deepEqual(
        [allDay?.allDay, allDay?.start, allDay?.end, allDay?.timeZone, allDay?.menuName],
        [true, utc("2018-03-04T15:00:00Z"), utc("2018-03-05T15:00:00Z"), TOKYO, "会議"],
      );
      const timed = byTitle.get("時間指定");
      assert.deepEqual(
        [timed?.allDay, timed?.start, timed?.end],
        [false, utc("2018-03-02T04:10:00Z"), utc("2018-03-02T04:45:00Z")],
      );
      assert.equal(byTitle.get("二日間の研修")?.end, utc("2018-03-07T15:00:00Z"), "two days");
    });
  });

  it("a second run makes nothing and finds everything", async () => {
    const before = await snapshot();
    const again = await japanese();
    assert.deepEqual(await snapshot(), before);
    assert.deepEqual(again.group, { ...first.group, created: false });
    assert.deepEqual(again.created, none);
    assert.deepEqual(again.alreadyImported, { ...expectedCounts, accounts: 0, members: 0 });
    assert.deepEqual(again.problems, first.problems, "the same problems, reported again");
  });

  it("leaves out an item deleted here since an earlier import, with its comments, and says so", async () => {
    const groupId = first.group.id ?? 0;
    const topics = await test.store.read((tx) => tx.topics.list(groupId, { kind: "all" }, { offset: 0, limit: 10 }));
    const gone = topics.find((topic) => topic.title !== "") ?? assert.fail("an imported topic");
    const parent: ContentRef = { kind: "BOARD", groupId, id: gone.id };
    // As a member's deletion does: the topic and everything on it.
    await test.store.transaction(async (tx) => {
      await tx.comments.removeAllOf(parent);
      await tx.topics.remove(gone.id);
    });
    const again = await japanese();
    assert.deepEqual(again.created, none, "nothing comes back");
    assert.equal(again.alreadyImported.topics, expectedCounts.topics - 1);
    const deleted = again.problems.filter((problem) => problem.kind === "DELETED_SINCE_IMPORT");
    assert.equal(deleted.length, 1);
    assert.match(deleted[0]!.message, new RegExp(`topic "${gone.title}"`));
    const orphans = await test.store.read((tx) => tx.comments.count(parent, {}));
    assert.equal(orphans, 0, "no comment is written on the deleted topic");
  });

  it("imports the English UTF-8 export into an existing group by id, in another zone", async () => {
    const groupId = first.group.id ?? 0;
    const report = await importCybozuLive(ctx, {
      files: filesOf(join(FIXTURES, "en-utf8")),
      target: { groupId },
      timeZone: "UTC",
      dryRun: false,
    });
    assert.deepEqual(report.created, {
      topics: 2,
      comments: 3,
      tasks: 2,
      events: 2,
      accounts: 2,
      members: 2,
      chatRooms: 1,
      chatMessages: 3,
    });
    assert.deepEqual(
      report.problems.map((p) => p.kind),
      ["PERSON_WITHOUT_ACCOUNT", "PERSON_WITHOUT_ACCOUNT"],
    );
    await test.store.read(async (tx) => {
      const keys = await tx.importKeys.listOf(groupId);
      const topic = await tx.topics.findById(keys.get("cybozulive:topic:1:500") ?? 0);
      const comments = await tx.comments.listAll([{ kind: "BOARD", groupId, id: topic?.id ?? 0 }]);
      assert.deepEqual(
        comments.map((c) => [c.authorName, c.createdAt]),
        [
          ["Bob Jones", utc("2018-07-13T08:36:00Z")],
          ["Alice Smith", utc("2018-07-12T17:30:00Z")],
        ],
      );
    });
  });

  it("gives two names of one address (a member renamed) one placeholder", async () => {
    const members =
      '"姓","名","よみがな姓","よみがな名","メールアドレス"\r\n"Old","Name","","","same@example.com"\r\n"New","Name","","","same@example.com"\r\n';
    const header = '"ID","タイトル","本文","作成者","作成日時","更新者","更新日時","コメント"\r\n';
    const rows = [
      '"1:1","a","","Old Name","2018/3/1 10:00","","",""',
      '"1:2","b","","New Name","2018/3/1 11:00","","",""',
    ];
    const files = [
      { name: "members.csv", bytes: Buffer.from(members) },
      { name: "board.csv", bytes: Buffer.from(`${header}${rows.join("\r\n")}\r\n`) },
    ];
    const run = () =>
      importCybozuLive(ctx, { files, target: { groupName: "Renamed" }, timeZone: TOKYO, dryRun: false });
    const report = await run();
    assert.deepEqual([report.created.topics, report.created.accounts, report.created.members], [2, 1, 1]);
    assert.deepEqual((await run()).created.accounts, 0);
  });

  it("a broken file changes nothing, and the error names the file and line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kairan-import-"));
    try {
      cpSync(join(FIXTURES, "en-utf8"), dir, { recursive: true });
      const todo = join(dir, "live_To-Do List_20180713.csv");
      writeFileSync(todo, readFileSync(todo, "utf8").replace('"2018/7/14"', '"2018/7/44"'));
      const before = await snapshot();
      await assert.rejects(
        importCybozuLive(ctx, { files: filesOf(dir), target: { groupName: "Broken" }, timeZone: TOKYO, dryRun: false }),
        (error: unknown) =>
          error instanceof ImportFileError &&
          error.file === "live_To-Do List_20180713.csv" &&
          error.line === 3 &&
          /"2018\/7\/44" is not a date/.test(error.message),
      );
      assert.deepEqual(await snapshot(), before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a record that breaks one of Kairan's rules changes nothing either", async () => {
    const header = '"ID","タイトル","本文","作成者","作成日時","更新者","更新日時","コメント"\r\n';
    const row = (id: string, title: string) => `"${id}","${title}","","A","2018/3/1 10:00","A","2018/3/1 10:00",""\r\n`;
    const before = await snapshot();
    const files = [
      { name: "board.csv", bytes: Buffer.from(header + row("1:1", "fine") + row("1:2", "x".repeat(201))) },
    ];
    await assert.rejects(
      importCybozuLive(ctx, { files, target: { groupName: "Long" }, timeZone: TOKYO, dryRun: false }),
      (error: unknown) =>
        error instanceof ImportFileError && error.line === 3 && /TOPIC_TITLE_TOO_LONG/.test(error.message),
    );
    assert.deepEqual(await snapshot(), before);
    const longest = [{ name: "board.csv", bytes: Buffer.from(header + row("1:2", "x".repeat(200))) }];
    const fits = await importCybozuLive(ctx, {
      files: longest,
      target: { groupName: "Long" },
      timeZone: TOKYO,
      dryRun: true,
    });
    assert.equal(fits.created.topics, 1, "200 characters, the limit, pass");
  });

  it("a later export of a chat room adds only its new messages, and a too long message changes nothing", async () => {
    const eq = "=".repeat(80);
    const dash = "-".repeat(80);
    const post = (n: number, who: string, time: string, text: string) => [
      `${n}: ${who}`,
      `2018/4/1 ${time}`,
      "",
      text,
      dash,
    ];
    const room = (posts: string[][]) => ({
      name: "room.txt",
      bytes: Buffer.from(["Plans", eq, "Title: Plans", "", eq, ...posts.flat()].join("\r\n") + "\r\n"),
    });
    const run = (posts: string[][], dryRun = false) =>
      importCybozuLive(ctx, { files: [room(posts)], target: { groupName: "Chat later" }, timeZone: TOKYO, dryRun });
    const one = post(1, "Ann Lee", "10:00", "first");
    const made = await run([one]);
    assert.deepEqual([made.created.chatRooms, made.created.chatMessages], [1, 1]);
    const later = await run([one, post(2, "Ben Ito", "10:05", "second")]);
    assert.deepEqual(
      [
        later.created.chatRooms,
        later.created.chatMessages,
        later.alreadyImported.chatRooms,
        later.alreadyImported.chatMessages,
      ],
      [0, 1, 1, 1],
    );
    const before = await snapshot();
    await assert.rejects(
      run([one, post(3, "Ann Lee", "10:10", "x".repeat(3_001))]),
      (error: unknown) =>
        error instanceof ImportFileError && error.line === 11 && /CHAT_MESSAGE_TOO_LONG/.test(error.message),
    );
    assert.deepEqual(await snapshot(), before);
    const fits = await run([one, post(3, "Ann Lee", "10:10", "x".repeat(3_000))], true);
    assert.equal(fits.created.chatMessages, 1, "3,000 characters, the limit, pass");
  });
});
