// The feed cache's safety property over real HTTP, on every backend: after any sequence of writes
// by several users, through either of two server instances or around them (services as the CLI
// runs them, an operator's SQL through another connection), every feed URL polled by every user
// through either instance answers 304 only when the body would be byte-identical, and 200 with
// exactly the bytes a third instance without a cache builds (the reference). Generated sequences,
// reproducible: the seed is fixed (KAIRAN_FUZZ_SEED overrides it) and printed with any failure.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import fc from "fast-check";
import { type Kysely, sql } from "kysely";
import type { Group } from "../../src/domain/group.js";
import { formatCommentId, formatContentId } from "../../src/domain/item-id.js";
import { notificationItemId } from "../../src/present/notification.js";
import { addMember, removeMember, setNotify } from "../../src/services/member/member-admin.js";
import { createTaskAsOperator, updateTaskAsOperator } from "../../src/services/task/task-admin.js";
import type { Database } from "../../src/store/schema.js";
import { openPostgresDatabase } from "../../src/store/postgres/open.js";
import { openSqliteDatabase } from "../../src/store/sqlite/open.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { addTestFile } from "../support/files.js";
import { CLIENT_NS, request } from "../support/http.js";
import { shortOrLong } from "../support/long.js";
import { type SiblingServer, type TestServer, startSiblingServer, startTestServer } from "../support/server.js";

const SEED = Number(process.env.KAIRAN_FUZZ_SEED ?? 20_260_408);
const RUNS = shortOrLong(2, 30);
// Links in feeds carry the base URL: the same one for every instance, so their bytes compare.
const PUBLIC_URL = "http://kairan.test";

/** One generated write; users, groups and items are picked by index among those that exist. */
type Write =
  | {
      readonly op: "createTopic" | "editTopic" | "deleteTopic" | "addComment" | "deleteComment";
      readonly user: number;
      readonly pick: number;
      readonly via: number;
    }
  | {
      readonly op: "like" | "favorite" | "confirm" | "confirmLike";
      readonly user: number;
      readonly pick: number;
      readonly on: boolean;
      readonly via: number;
    }
  | { readonly op: "task" | "file" | "rename"; readonly user: number; readonly pick: number }
  | { readonly op: "join" | "leave" | "notify"; readonly user: number; readonly pick: number; readonly on: boolean };

/**
 * The feed without the one field that follows the clock instead of the data: an empty feed's
 * `updated` (and the notification feed's `dc:date`, the same value) is the time of the request.
 * A kept copy carries the time it was built, which says as much (docs/performance.md).
 */
function clockFree(feed: string): string {
  if (feed.includes("<entry>") || feed.includes("<entry ")) return feed;
  return feed.replace(/<updated>[^<]*<\/updated>/, "<updated/>").replace(/<dc:date>[^<]*<\/dc:date>/, "<dc:date/>");
}

const user = fc.nat(3);
const pick = fc.nat(9);
const via = fc.nat(1);
// Likes and confirmations weigh more: a confirmation changes something only after a like or a
// join made one to confirm.
const writeArbitrary: fc.Arbitrary<Write> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constantFrom("createTopic", "editTopic", "deleteTopic", "addComment", "deleteComment"),
      user,
      pick,
      via,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constantFrom("like", "favorite", "confirm", "confirmLike"),
      user,
      pick,
      on: fc.boolean(),
      via,
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constantFrom("task", "file", "rename"), user, pick }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constantFrom("join", "leave", "notify"), user, pick: fc.nat(1), on: fc.boolean() }),
  },
) as fc.Arbitrary<Write>;

/**
 * Run first: every kind of write once, in an order where each changes something (a like of Ben's
 * topic that Ben then confirms, a join whose notification Ann confirms, ...). Topics are picked
 * newest first: at the start 0 is Ben's "second", 1 Ann's "first".
 */
const EVERY_KIND: readonly Write[] = [
  { op: "like", user: 2, pick: 0, on: true, via: 0 },
  { op: "confirmLike", user: 1, pick: 0, on: true, via: 1 },
  { op: "join", user: 3, pick: 0, on: true },
  { op: "confirm", user: 0, pick: 0, on: true, via: 0 },
  { op: "favorite", user: 3, pick: 1, on: true, via: 1 },
  { op: "addComment", user: 1, pick: 1, via: 0 },
  { op: "editTopic", user: 0, pick: 1, via: 1 },
  { op: "task", user: 0, pick: 1 },
  { op: "file", user: 0, pick: 0 },
  { op: "rename", user: 2, pick: 0 },
  { op: "notify", user: 1, pick: 0, on: false },
  { op: "deleteComment", user: 1, pick: 1, via: 1 },
  { op: "createTopic", user: 3, pick: 0, via: 0 },
  { op: "like", user: 2, pick: 2, on: false, via: 0 },
  { op: "leave", user: 3, pick: 0, on: false },
  { op: "deleteTopic", user: 0, pick: 1, via: 1 },
];

describeEachBackend("the feed cache never answers what a fresh build would not", (backend) => {
  let server: TestServer;
  let sibling: SiblingServer;
  let reference: SiblingServer;
  let operator: Kysely<Database>;
  let users: TestUser[];
  let groups: Group[];
  let firstTopicId: string;
  const tally = { polls: 0, notModified: 0, steps: 0 };

  before(async () => {
    server = await startTestServer(backend, { publicUrl: PUBLIC_URL });
    sibling = await startSiblingServer(server, { publicUrl: PUBLIC_URL });
    reference = await startSiblingServer(server, { publicUrl: PUBLIC_URL, limits: { feedCache: "0" } });
    const config = server.storeConfig;
    operator = config.kind === "sqlite" ? openSqliteDatabase(config.file) : openPostgresDatabase({ url: config.url });
    const f = server.factories;
    users = [
      await f.user({ name: "Ann" }),
      await f.user({ name: "Ben" }),
      await f.user({ name: "Cy" }),
      await f.user({ name: "Di" }),
    ];
    const [ann, ben, cy, di] = users as [TestUser, TestUser, TestUser, TestUser];
    groups = [await f.group([ann, ben, cy], { name: "Home" }), await f.group([ann, di], { name: "Away" })];
    const home = groups[0] as Group;
    await f.boardFolder(home, "Notes");
    const first = await f.topic(home, ann, { title: "first", body: "the first topic" });
    firstTopicId = `GROUP,1:${home.id},BOARD,1:${first.id}`;
    await f.comment(first, ben, { body: "a comment" });
    await f.topic(home, ben, { title: "second" });
    await f.topic(groups[1] as Group, di, { title: "away topic" });
    const task = {
      title: "a task",
      body: "",
      authorEmail: ann.email,
      assigneeEmail: ben.email,
      due: null,
      priority: "B",
      status: "NOT_STARTED",
      folderId: null,
    } as const;
    await createTaskAsOperator(server, { groupId: home.id, ...task });
    await addTestFile(server, home, ann, { fileName: "a.txt" });
  });
  after(async () => {
    await operator?.destroy();
    await reference?.close();
    await sibling?.close();
    await server?.close();
    console.log(
      `feed cache safety [${backend}]: ${tally.steps} writes, ${tally.polls} polls, ${tally.notModified} answered 304`,
    );
  });

  /** Every feed URL of the endpoints, as one user polls them. */
  const feedPaths = (): string[] => {
    const [home, away] = groups.map((group) => `1:${group.id}`);
    return [
      `/api/board/V2?group=${home}`,
      `/api/board/V2?group=${home}&embed-comment=true`,
      `/api/board/V2?entry=${firstTopicId}`,
      `/api/board/V2?group=${away}`,
      `/api/comment/V2?entry=${firstTopicId}`,
      `/api/comment/V2?entry=${firstTopicId}&unconfirmed=true`,
      `/api/gwTask/V2?group=${home}&embed-comment=true`,
      `/api/gwCabinet/V2?group=${home}&embed-history=true`,
      `/api/gwMemberList/V2?group=${home}`,
      `/api/star/V2`,
      `/api/good/V2?id=${firstTopicId}`,
      `/api/notification/V2`,
      `/api/goodNotification/V2`,
      `/api/group/V2`,
      `/api/boardFolder/V2?group=${home}`,
    ];
  };

  /** The last tag and body each instance gave each user for each URL: what a polling client holds. */
  const held = new Map<string, { readonly tag: string; readonly body: string }>();

  /** Polls every URL as every user through both caching instances and checks them against the reference. */
  async function pollEverything(conditional: boolean): Promise<void> {
    const polls = users.flatMap((user) => feedPaths().map((path) => ({ user, path })));
    await Promise.all(
      polls.map(async ({ user, path }) => {
        const expected = await request(`${reference.url}${path}`, { token: user.token });
        for (const [name, url] of [
          ["first", server.url],
          ["sibling", sibling.url],
        ] as const) {
          const key = `${name} ${user.name} ${path}`;
          const last = held.get(key);
          const headers: Record<string, string> =
            conditional && last !== undefined ? { "if-none-match": last.tag } : {};
          const got = await request(`${url}${path}`, { token: user.token, headers });
          tally.polls += 1;
          if (got.status === 304) {
            tally.notModified += 1;
            assert.equal(
              clockFree(last?.body ?? ""),
              clockFree(expected.text),
              `${key}: 304 for a tag whose body changed`,
            );
            continue;
          }
          assert.equal(got.status, expected.status, `${key}: ${got.text}`);
          if (expected.status !== 200) continue;
          assert.equal(clockFree(got.text), clockFree(expected.text), `${key}: another body than a fresh build`);
          held.set(key, { tag: got.headers.get("etag") ?? "", body: got.text });
        }
      }),
    );
  }

  /** The topics of a group, newest first, and the comments of one of them. */
  const topicsOf = (group: Group) =>
    server.store.read((tx) => tx.topics.list(group.id, { kind: "all" }, { offset: 0, limit: 50 }));

  /** The ids of a user's unconfirmed notifications or like notifications. */
  const unconfirmedIds = (user: TestUser, op: "confirm" | "confirmLike") =>
    server.store.read(async (tx) => {
      const page = { offset: 0, limit: 50 };
      if (op === "confirm") {
        const filter = {
          unconfirmedOnly: true,
          mentions: "without" as const,
          itemKind: null,
          groupId: null,
          hiddenGroupIds: [],
        };
        return (await tx.notifications.list(user.id, filter, page)).map((notification) =>
          notificationItemId(notification.item),
        );
      }
      return (await tx.likeNotifications.list(user.id, { unconfirmedOnly: true }, page)).map((notification) => {
        if (notification.kind === "chat")
          return `chat:${notification.message.roomId}:${notification.message.messageNumber}`;
        const { item } = notification;
        return item.commentNumber === 0
          ? formatContentId(item.parent)
          : formatCommentId(item.parent, item.commentNumber);
      });
    });

  async function apply(write: Write): Promise<void> {
    server.clock.advance(1000);
    const user = users[write.user] as TestUser;
    const group = groups[write.pick % groups.length] as Group;
    const topics = [...(await topicsOf(groups[0] as Group)), ...(await topicsOf(groups[1] as Group))];
    const topic = topics[write.pick % Math.max(1, topics.length)];
    const topicId = topic === undefined ? firstTopicId : `GROUP,1:${topic.groupId},BOARD,1:${topic.id}`;
    const via = "via" in write && write.via === 1 ? sibling.url : server.url;
    const post = (path: string, body: string) => request(`${via}${path}`, { token: user.token, body });
    const ignoreRefusal = (promise: Promise<unknown>) => promise.catch(() => undefined);
    const on = "on" in write && write.on ? "insert" : "delete";
    switch (write.op) {
      case "createTopic":
        await post(
          "/api/board/V2",
          `<feed ${CLIENT_NS}><entry><cbl:group id="1:${group.id}"/><title>t${tally.steps}</title><summary type="text">body ${tally.steps}</summary></entry></feed>`,
        );
        return;
      case "editTopic":
        await post(
          "/api/board/V2",
          `<feed ${CLIENT_NS}><cbl:operation type="update"/><entry><id>${topicId}</id><title>edited ${tally.steps}</title><summary type="text">b</summary></entry></feed>`,
        );
        return;
      case "deleteTopic":
        await post(
          "/api/board/V2",
          `<feed ${CLIENT_NS}><cbl:operation type="delete"/><entry><id>${topicId}</id></entry></feed>`,
        );
        return;
      case "addComment":
        await post(
          "/api/comment/V2",
          `<feed ${CLIENT_NS}><id>${topicId}</id><entry><summary type="text">c${tally.steps}</summary></entry></feed>`,
        );
        return;
      case "deleteComment": {
        const comments =
          topic === undefined
            ? []
            : await server.store.read((tx) =>
                tx.comments.listAll([{ kind: "BOARD", groupId: topic.groupId, id: topic.id }]),
              );
        const comment = comments[write.pick % Math.max(1, comments.length)];
        if (comment !== undefined)
          await post(
            "/api/comment/V2",
            `<feed ${CLIENT_NS}><cbl:operation type="delete"/><entry><id>${topicId},COMMENT,1:${comment.number}</id></entry></feed>`,
          );
        return;
      }
      case "like":
      case "favorite":
        await post(
          write.op === "like" ? "/api/good/V2" : "/api/star/V2",
          `<feed ${CLIENT_NS}><cbl:operation type="${on}"/><entry><id>${topicId}</id></entry></feed>`,
        );
        return;
      case "confirm":
      case "confirmLike": {
        // An unconfirmed one (the first user from `user` on who has any), so that the
        // confirmation changes something: a member list's (joined, left) moves nothing else; an
        // item's also confirms its comments.
        for (let n = 0; n < users.length; n++) {
          const owner = users[(write.user + n) % users.length] as TestUser;
          const ids = await unconfirmedIds(owner, write.op);
          if (ids.length === 0) continue;
          const path = write.op === "confirm" ? "/api/notification/V2" : "/api/goodNotification/V2";
          await request(`${via}${path}`, {
            token: owner.token,
            body: `<feed ${CLIENT_NS}><entry><id>${ids[write.pick % ids.length]}</id></entry></feed>`,
          });
          return;
        }
        return;
      }
      case "task": {
        const [task] = await server.store.read((tx) =>
          tx.tasks.list(
            (groups[0] as Group).id,
            { kind: "all" },
            { term: undefined, notCompletedOnly: false },
            { offset: 0, limit: 1 },
          ),
        );
        const status = (["NOT_STARTED", "IN_PROGRESS", "COMPLETED"] as const)[write.pick % 3];
        if (task !== undefined)
          await updateTaskAsOperator(server, {
            ref: { kind: "TASK", groupId: task.groupId, id: task.id },
            status,
            title: `task ${tally.steps}`,
          });
        return;
      }
      case "file":
        await ignoreRefusal(addTestFile(server, group, user, { fileName: `f${tally.steps}.txt` }));
        return;
      case "rename":
        // An operator's SQL, through a connection of its own: no server process sees it happen.
        await sql`update users set name = ${`${user.name.split(" ")[0]} ${tally.steps}`} where id = ${user.id}`.execute(
          operator,
        );
        return;
      case "join":
      case "leave":
      case "notify": {
        const input = { groupId: group.id, email: user.email };
        if (write.op === "join") await ignoreRefusal(addMember(server, { ...input, manager: false }));
        else if (write.op === "leave") await ignoreRefusal(removeMember(server, input));
        else await ignoreRefusal(setNotify(server, { ...input, value: write.on }));
        return;
      }
    }
  }

  it(`answers 304 only for the bytes a fresh build would send, and otherwise those bytes (${RUNS} runs, seed ${SEED})`, async () => {
    await pollEverything(false);
    await fc.assert(
      fc.asyncProperty(fc.array(writeArbitrary, { minLength: 6, maxLength: 12 }), async (writes) => {
        for (const write of writes) {
          await apply(write);
          tally.steps += 1;
          // Conditional polls mostly (what clients send), plain ones too: a kept 200 is checked as well.
          await pollEverything(tally.steps % 3 !== 0);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true, examples: [[[...EVERY_KIND]]] },
    );
    assert.ok(tally.notModified > 0, "some polls found nothing new");
    assert.ok(tally.notModified < tally.polls, "some polls found changes");
  });
});
