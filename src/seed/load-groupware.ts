import type { BlobStore } from "../blobs/blob-store.js";
import { type ContentRef, formatContentId, formatPair } from "../domain/item-id.js";
import { parseDue } from "../domain/task.js";
import { discardFileBytes, storeFileBytes } from "../services/file/file-content.js";
import { notifyMentions } from "../services/notification/mention.js";
import type { Tx } from "../store/store.js";
import type { Seed } from "./schema.js";
import type { NewFileVersion } from "../store/queries/files.repo.js";

type GroupSeed = Seed["groups"][number];

/** What the groupware part of a seed adds to the printed result. */
export interface GroupwareResult {
  tasks: Record<string, string>;
  files: Record<string, string>;
  folders: Record<string, string>;
}

/** File versions whose bytes are already in the blob store, keyed by group and file index. */
export type StoredVersions = ReadonlyMap<string, readonly NewFileVersion[]>;

/**
 * Streams every file version's bytes into the blob store before the seed's transaction opens
 * (reading images takes time a write lock should not be held for).
 */
export async function storeSeedFiles(blobs: BlobStore, seed: Seed, at: number): Promise<Map<string, NewFileVersion[]>> {
  const stored = new Map<string, NewFileVersion[]>();
  for (const [gi, group] of seed.groups.entries()) {
    for (const [fi, file] of group.files.entries()) {
      const versions: NewFileVersion[] = [];
      stored.set(`${gi}/${fi}`, versions);
      for (const version of file.versions) {
        const source =
          version.content !== undefined
            ? Buffer.from(version.content, "utf8")
            : Buffer.from(version.contentBase64 ?? "", "base64");
        // The author id is filled in inside the transaction, once users exist.
        versions.push(
          await storeFileBytes(
            blobs,
            { fileName: version.fileName, source, authorId: 0, comment: version.comment },
            at,
          ),
        );
      }
    }
  }
  return stored;
}

/** Removes the bytes of a seed whose transaction failed. */
export async function discardSeedFiles(blobs: BlobStore, stored: StoredVersions): Promise<void> {
  for (const versions of stored.values()) for (const version of versions) await discardFileBytes(blobs, version);
}

/** Loads one group's task folders, tasks, cabinet folders and files. */
export async function loadGroupware(
  tx: Tx,
  input: {
    groupId: number;
    groupIndex: number;
    seed: GroupSeed;
    userIds: ReadonlyMap<string, number>;
    stored: StoredVersions;
    now: number;
  },
  result: GroupwareResult,
): Promise<void> {
  const { groupId, seed, userIds, now } = input;
  const user = (ref: string | undefined) => (ref === undefined ? null : (userIds.get(ref) ?? null));
  const taskFolders = await loadFolders(tx, groupId, "TASK", seed.taskFolders, now, result);
  for (const task of seed.tasks) {
    const due = task.due === undefined ? undefined : parseDue(task.due);
    const allDay = task.allDay ?? due?.allDay ?? false;
    const created = await tx.tasks.insert({
      groupId,
      title: task.title,
      body: task.summary,
      authorId: user(task.author) ?? 0,
      assigneeId: user(task.assignee),
      // An all-day task is kept as midnight UTC of its day.
      dueAt: due === undefined ? null : allDay ? due.dueAt - (due.dueAt % 86_400_000) : due.dueAt,
      allDay: due !== undefined && allDay,
      priority: task.priority,
      status: task.status,
      folderId: task.folder === undefined ? null : (taskFolders.get(task.folder) ?? null),
      trashed: task.trashed,
      at: now,
    });
    const ref: ContentRef = { kind: "TASK", groupId, id: created.id };
    result.tasks[task.ref] = formatContentId(ref);
    await tx.notifications.fanOut({ item: ref, actorId: created.authorId, cause: { kind: "created" }, at: now });
    await notifyMentions(tx, {
      item: ref,
      commentNumber: null,
      text: task.summary,
      actorId: created.authorId,
      at: now,
    });
  }
  const cabinetFolders = await loadFolders(tx, groupId, "CABINET", seed.cabinetFolders, now, result);
  for (const [fi, file] of seed.files.entries()) {
    const versions = (input.stored.get(`${input.groupIndex}/${fi}`) ?? []).map((v, vi) => ({
      ...v,
      authorId: user(file.versions[vi]?.author) ?? 0,
    }));
    const [first, ...rest] = versions;
    if (!first) continue;
    const folderId = file.folder === undefined ? null : (cabinetFolders.get(file.folder) ?? null);
    const created = await tx.files.insert(
      {
        groupId,
        title: file.title,
        memo: file.memo,
        authorId: user(file.author) ?? 0,
        folderId,
        trashed: file.trashed,
      },
      first,
    );
    const ref: ContentRef = { kind: "CABINET", groupId, id: created.id };
    await tx.notifications.fanOut({ item: ref, actorId: created.authorId, cause: { kind: "created" }, at: now });
    await notifyMentions(tx, { item: ref, commentNumber: null, text: file.memo, actorId: created.authorId, at: now });
    for (const version of rest) {
      await tx.files.addVersion(created.id, version);
      await tx.notifications.fanOut({
        item: ref,
        actorId: version.authorId,
        cause: { kind: "updated", bodyChanged: false },
        at: now,
      });
    }
    result.files[file.ref] = formatContentId(ref);
  }
}

async function loadFolders(
  tx: Tx,
  groupId: number,
  area: "TASK" | "CABINET",
  folders: readonly { ref: string; name: string }[],
  now: number,
  result: GroupwareResult,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const folder of folders) {
    const created = await tx.folders.insert({ groupId, area, name: folder.name, createdAt: now });
    ids.set(folder.ref, created.id);
    result.folders[folder.ref] = formatPair(created.id);
  }
  return ids;
}
