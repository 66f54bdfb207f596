// A small workspace with one item of every kind, for suites that aim requests at every endpoint:
// a group ("home") whose owner may do everything, and a second group whose items others aim at.
import assert from "node:assert/strict";
import type { Group } from "../../src/domain/group.js";
import type { User } from "../../src/domain/user.js";
import { addTestFile } from "./files.js";
import type { TestConsumer, TestUser } from "./factories.js";
import { CLIENT_NS, request } from "./http.js";
import { postMultipart } from "./multipart.js";
import { temporaryToken } from "./oauth.js";
import type { TestServer } from "./server.js";

/** The wire ids of one group's items. */
export interface GroupItems {
  readonly group: Group;
  /** `1:n`. */
  readonly groupPair: string;
  readonly topicId: string;
  readonly commentId: string;
  readonly attachmentId: string;
  readonly taskId: string;
  readonly fileId: string;
  /** A group event (in the default window: tomorrow). */
  readonly eventId: string;
  /** Folder ids (`1:n`) of the board, task and cabinet areas. */
  readonly folders: readonly string[];
  /** A member id (`1:n`) of the group. */
  readonly memberId: string;
  /** Every title and body seeded, for leak checks. */
  readonly secrets: readonly string[];
}

/**
 * Seeds `owner`'s group (owner manager, `others` joined members): a folder per area, a topic with
 * a comment that carries an attachment, a task and a shared file. `tag` goes into every title, so
 * a response that leaks any of them can be found by it.
 */
export async function seedGroup(
  server: TestServer,
  owner: TestUser,
  others: readonly TestUser[],
  tag: string,
): Promise<GroupItems> {
  const f = server.factories;
  const group = await f.group([owner, ...others], { name: `${tag} group` });
  const folders = [
    await f.folder(group, "BOARD", `${tag} board folder`),
    await f.folder(group, "TASK", `${tag} task folder`),
    await f.folder(group, "CABINET", `${tag} cabinet folder`),
  ];
  const topic = await f.topic(group, owner, { title: `${tag} topic`, body: `${tag} topic body`, allowEdit: true });
  const topicId = `GROUP,1:${group.id},BOARD,1:${topic.id}`;
  const xml = `<feed ${CLIENT_NS}><cbl:operation type="insert"/><id>${topicId}</id><entry><summary type="text">${tag} comment</summary></entry></feed>`;
  const upload = await postMultipart(`${server.url}/api/comment/V2`, owner.token, [
    { name: "default", text: xml },
    { name: "file0", fileName: `${tag}-attachment.txt`, size: 64 },
  ]);
  assert.equal(upload.status, 200, upload.text);
  const task = await f.task(group, owner, { title: `${tag} task`, body: `${tag} task body` });
  const file = await addTestFile(server, group, owner, {
    fileName: `${tag}-file.txt`,
    title: `${tag} file`,
    memo: `${tag} file memo`,
  });
  const eventId = await seedEvent(server, group, owner, `${tag} event`);
  const member = await server.store.read((tx) => tx.memberships.findJoined(group.id, owner.id));
  assert.ok(member);
  return {
    group,
    groupPair: `1:${group.id}`,
    topicId,
    commentId: `${topicId},COMMENT,1`,
    attachmentId: `${topicId},COMMENT,1,ATTACHMENT,1`,
    taskId: `GROUP,1:${group.id},TASK,1:${task.id}`,
    fileId: `GROUP,1:${group.id},CABINET,1:${file.id}`,
    eventId,
    folders: folders.map((id) => `1:${id}`),
    memberId: `1:${member.id}`,
    secrets: [
      `${tag} group`,
      `${tag} topic`,
      `${tag} comment`,
      `${tag}-attachment.txt`,
      `${tag} task`,
      `${tag} file`,
      `${tag}-file.txt`,
      `${tag} board folder`,
      `${tag} event`,
    ],
  };
}

/** An event of `creator` in `group`, one hour tomorrow (inside the default listing window); its wire id. */
export async function seedEvent(
  server: TestServer,
  group: Group,
  creator: { readonly id: number },
  title: string,
): Promise<string> {
  const start = server.clock.now() + 24 * 60 * 60 * 1000;
  const id = await server.store.transaction((tx) =>
    tx.events.insert({
      groupId: group.id,
      creatorId: creator.id,
      title,
      memo: `${title} memo`,
      start,
      end: start + 60 * 60 * 1000,
      allDay: false,
      timeZone: "UTC",
      rule: null,
      seriesEnd: start + 60 * 60 * 1000,
      menuId: null,
      participantIds: [],
      facilityIds: [],
      exceptions: [],
      at: server.clock.now(),
    }),
  );
  return `GROUP,1:${group.id},GW_SCHEDULE,1:${id}`;
}

/**
 * A pending OAuth temporary credential of `consumer` (signed `/oauth/initiate`), with the CSRF
 * token its sign-in page carries: what requests to the sign-in pages need to get past "unknown".
 */
export async function pendingSignIn(
  server: TestServer,
  consumer: TestConsumer,
): Promise<{ readonly token: string; readonly csrf: string }> {
  const token = await temporaryToken(server.url, consumer, server.clock);
  const page = await request(`${server.url}/oauth/authorize?oauth_token=${encodeURIComponent(token)}`);
  const csrf = /name="csrf_token" value="([^"]*)"/.exec(page.text)?.[1];
  assert.ok(csrf, page.text);
  return { token, csrf };
}

/** A personal task of `owner`; returns its id. */
export async function seedPersonalTask(server: TestServer, owner: User, title: string): Promise<string> {
  const task = await server.store.transaction((tx) =>
    tx.personalTasks.insert({
      ownerId: owner.id,
      title,
      body: "",
      dueAt: null,
      allDay: false,
      priority: "B",
      status: "NOT_STARTED",
      at: server.clock.now(),
    }),
  );
  return `MYPAGE,1:${owner.id},TASK,1:${task.id}`;
}
