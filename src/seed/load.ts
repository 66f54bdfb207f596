import { hashPassword } from "../auth/password.js";
import { hashToken } from "../auth/token.js";
import { type ContentRef, formatContentId, formatPair } from "../domain/item-id.js";
import type { ServiceContext } from "../services/context.js";
import { notifyMentions } from "../services/notification/mention.js";
import type { Store, Tx } from "../store/store.js";
import { type StoredVersions, discardSeedFiles, loadGroupware, storeSeedFiles } from "./load-groupware.js";
import { loadChatRooms } from "./chat.js";
import { loadPersonalTasks } from "./personal-tasks.js";
import { loadEvents } from "./load-events.js";
import { loadPersonalEvents } from "./personal-events.js";
import type { Seed } from "./schema.js";
import { SeedError } from "./validate.js";

/** What `kairan seed` prints: every ref and the identifier it got. */
export interface SeedResult {
  users: Record<string, string>;
  apps: Record<string, string>;
  groups: Record<string, string>;
  topics: Record<string, string>;
  tasks: Record<string, string>;
  events: Record<string, string>;
  files: Record<string, string>;
  folders: Record<string, string>;
  members: Record<string, string>;
  /** Chat rooms, from their creator's side. */
  chatRooms: Record<string, string>;
  /** Personal events, by ref. */
  personalEvents: Record<string, string>;
  /** Personal tasks (`MYPAGE,1:<owner>,TASK,1:n`). */
  personalTasks: Record<string, string>;
}

/** Loads a validated seed in one transaction: all of it, or nothing (file bytes included). */
export async function loadSeed(ctx: ServiceContext, seed: Seed): Promise<SeedResult> {
  const { store, blobs } = ctx;
  // Hashing is slow on purpose; do it before the transaction so the write lock is held briefly.
  const passwordHashes = await Promise.all(seed.users.map((user) => hashPassword(user.password)));
  const now = ctx.clock.now();
  const stored = await storeSeedFiles(blobs, seed, now);
  try {
    return await loadRows(store, seed, passwordHashes, stored, now);
  } catch (error) {
    await discardSeedFiles(blobs, stored);
    throw error;
  }
}

async function loadRows(
  store: Store,
  seed: Seed,
  passwordHashes: readonly string[],
  stored: StoredVersions,
  now: number,
): Promise<SeedResult> {
  return store.transaction(async (tx) => {
    await refuseExisting(tx, seed);
    const result: SeedResult = {
      users: {},
      apps: {},
      groups: {},
      topics: {},
      tasks: {},
      events: {},
      files: {},
      folders: {},
      members: {},
      chatRooms: {},
      personalEvents: {},
      personalTasks: {},
    };
    const userIds = new Map<string, number>();
    for (const [i, user] of seed.users.entries()) {
      const created = await tx.users.insert({ ...user, passwordHash: passwordHashes[i] ?? "", createdAt: now });
      if (user.admin) await tx.users.update(created.id, { siteAdmin: true });
      userIds.set(user.ref, created.id);
      result.users[user.ref] = formatPair(created.id);
    }
    const appIds = new Map<string, number>();
    for (const app of seed.apps) {
      const created = await tx.apps.insert({ ...app, createdAt: now });
      appIds.set(app.ref, created.id);
      result.apps[app.ref] = app.consumerKey;
    }
    for (const token of seed.tokens) {
      await tx.tokens.insert({
        userId: userIds.get(token.user) ?? 0,
        appId: appIds.get(token.app) ?? 0,
        tokenHash: hashToken(token.token),
        secret: token.secret,
        label: token.label,
        // Operator-provisioned: works as a Bearer token and as an OAuth token alike.
        origin: "personal",
        createdAt: now,
      });
    }
    for (const [groupIndex, group] of seed.groups.entries()) {
      const groupId = await loadGroup(tx, group, userIds, now, result);
      await loadGroupware(tx, { groupId, groupIndex, seed: group, userIds, stored, now }, result);
      await loadEvents(tx, { groupId, seed: group, userIds, now }, result);
    }
    result.chatRooms = await loadChatRooms(tx, seed.chatRooms, userIds, now);
    result.personalEvents = await loadPersonalEvents(tx, seed.personalEvents, userIds, now);
    result.personalTasks = await loadPersonalTasks(tx, seed.personalTasks, userIds, now);
    return result;
  });
}

/**
 * A seed adds a workspace; it never merges into one. Users and applications it names that the
 * database already holds (a second `kairan seed` of the same file) stop it before any row.
 * @throws SeedError naming each of them
 */
async function refuseExisting(tx: Tx, seed: Seed): Promise<void> {
  const problems: string[] = [];
  for (const [i, user] of seed.users.entries())
    if (await tx.users.findByEmail(user.email))
      problems.push(`users[${i}].email: ${user.email} is already a user here`);
  for (const [i, app] of seed.apps.entries())
    if (await tx.apps.findByConsumerKey(app.consumerKey))
      problems.push(`apps[${i}].consumerKey: ${app.consumerKey} is already registered here`);
  if (problems.length > 0)
    throw new SeedError([
      ...problems,
      "nothing was loaded: a seed goes into a database without its users and applications",
    ]);
}

async function loadGroup(
  tx: Tx,
  seed: Seed["groups"][number],
  userIds: ReadonlyMap<string, number>,
  now: number,
  result: SeedResult,
): Promise<number> {
  const group = await tx.groups.insert({ name: seed.name, summary: seed.summary, createdAt: now });
  result.groups[seed.ref] = formatPair(group.id);
  for (const member of seed.members) {
    const created = await tx.memberships.insertJoined({
      groupId: group.id,
      userId: userIds.get(member.user) ?? 0,
      ...member,
      createdAt: now,
    });
    result.members[`${member.user}@${seed.ref}`] = formatPair(created.id);
  }
  for (const invite of seed.invites) {
    const expiresAt = invite.expires === undefined ? null : Date.parse(invite.expires);
    const id = await tx.memberships.insertInvite({
      groupId: group.id,
      email: invite.email,
      label: invite.label,
      expiresAt,
      createdAt: now,
    });
    result.members[invite.ref] = formatPair(id);
  }
  const folderIds = new Map<string, number>();
  for (const folder of seed.boardFolders) {
    const created = await tx.folders.insert({ groupId: group.id, area: "BOARD", name: folder.name, createdAt: now });
    folderIds.set(folder.ref, created.id);
    result.folders[folder.ref] = formatPair(created.id);
  }
  for (const topic of seed.topics) {
    const created = await tx.topics.insert({
      groupId: group.id,
      title: topic.title,
      body: topic.summary,
      authorId: userIds.get(topic.author) ?? 0,
      folderId: topic.folder === undefined ? null : (folderIds.get(topic.folder) ?? null),
      allowEdit: topic.allowEdit,
      fastNotify: topic.fastNotify,
      trashed: topic.trashed,
      at: now,
    });
    const ref: ContentRef = { kind: "BOARD", groupId: group.id, id: created.id };
    result.topics[topic.ref] = formatContentId(ref);
    // A seeded workspace looks as if its members had written it: the others have notifications of it.
    await tx.notifications.fanOut({ item: ref, actorId: created.authorId, cause: { kind: "created" }, at: now });
    const author = created.authorId;
    await notifyMentions(tx, { item: ref, commentNumber: null, text: topic.summary, actorId: author, at: now });
    for (const comment of topic.comments) {
      const number = await tx.comments.nextNumber(ref);
      const authorId = userIds.get(comment.author) ?? 0;
      await tx.comments.insert({
        parent: ref,
        number,
        authorId,
        body: comment.text,
        replyTo: comment.replyTo,
        at: now,
      });
      await tx.notifications.fanOut({ item: ref, actorId: authorId, cause: { kind: "comment", number }, at: now });
      await notifyMentions(tx, { item: ref, commentNumber: number, text: comment.text, actorId: authorId, at: now });
    }
  }
  return group.id;
}
