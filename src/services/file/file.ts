import type { Actor } from "../../domain/access.js";
import { NotFoundError } from "../../domain/errors.js";
import type { CabinetFile, CabinetFilter, FileVersion } from "../../domain/file.js";
import type { Group } from "../../domain/group.js";
import type { ContentRef } from "../../domain/item-id.js";
import { LIMITS } from "../../domain/limits.js";
import type { PageWindow } from "../../store/page-window.js";
import type { Tx } from "../../store/store.js";
import { requireFolderOf } from "../group/folder-access.js";
import { requireGroupMember } from "../group/group-access.js";
import { notifyMentions } from "../notification/mention.js";
import type { ServiceContext } from "../context.js";
import { type ChangeCursor, refuseChanges, showsInFolder } from "../../domain/changes.js";
import type { FolderFilter } from "../../domain/folder.js";
import { type ChangeFeed, type ChangesView, latestCursor, readChanges } from "../item/changes.js";

/** What a cabinet read returns: the group, its files, and their newest versions when asked for. */
export interface CabinetView {
  readonly group: Group;
  readonly files: readonly CabinetFile[];
  /** Up to 5 newest versions per file id, newest first; undefined when history was not asked for. */
  readonly histories: ReadonlyMap<number, readonly FileVersion[]> | undefined;
  /** A list read's delta sync: the next cursor, and the changes of a changes-since read. */
  readonly changes?: ChangesView;
}

/**
 * A page of a group's files, or with `changesSince` its changes after the cursor (docs/api.md
 * "Delta sync"; not of the ATTACH folder, whose entries are comment attachments).
 * @throws NotFoundError GROUP_NOT_FOUND, FOLDER_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED
 * @throws ValidationError CHANGES_NOT_SUPPORTED and a cursor's; GoneError CHANGES_CURSOR_EXPIRED
 */
export async function listFiles(
  ctx: ServiceContext,
  actor: Actor,
  input: {
    groupId: number;
    folder: CabinetFilter;
    page: PageWindow;
    embedHistory: boolean;
    changesSince?: ChangeCursor | undefined;
  },
): Promise<CabinetView> {
  const { folder } = input;
  if (folder.kind === "attach") {
    if (input.changesSince !== undefined) refuseChanges("the ATTACH folder (comment attachments)");
    return ctx.store.read(async (tx) => {
      const { group } = await requireGroupMember(tx, actor, input.groupId);
      const files = await tx.files.listAttachmentsOfGroup(group.id, input.page);
      return { group, files, histories: input.embedHistory ? await historiesOf(tx, files) : undefined };
    });
  }
  return ctx.store.read(async (tx) => {
    const feed = fileChanges(input.groupId, folder);
    if (input.changesSince !== undefined) {
      const read = await readChanges(tx, actor, feed, input.changesSince, input.page.limit);
      const histories = input.embedHistory ? await historiesOf(tx, read.items) : undefined;
      return { group: read.group, files: read.items, histories, changes: read.changes };
    }
    const { group } = await requireGroupMember(tx, actor, input.groupId);
    await feed.check?.(tx, group);
    const changes = await latestCursor(tx, feed.scope);
    const files = await tx.files.list(group.id, folder, input.page);
    return { group, files, histories: input.embedHistory ? await historiesOf(tx, files) : undefined, changes };
  });
}

/** The shared files as delta sync follows them: the group's files, shown as the folder filter shows them. */
function fileChanges(groupId: number, folder: FolderFilter): ChangeFeed<CabinetFile> {
  return {
    scope: { groupId, kind: "CABINET", parentId: 0 },
    async load(tx, ids) {
      const found = await Promise.all(ids.map((id) => tx.files.findById(id)));
      return found.filter((file) => file !== undefined && file.groupId === groupId) as CabinetFile[];
    },
    idOf: (file) => file.id,
    shows: (file) => showsInFolder(file, folder),
    async check(tx, group) {
      if (folder.kind === "folder") await requireFolderOf(tx, group.id, folder.folderId, "CABINET");
    },
  };
}

/** One file, in the same form as the list. @throws NotFoundError FILE_NOT_FOUND, ForbiddenError */
export async function getFile(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef; embedHistory: boolean },
): Promise<CabinetView> {
  return ctx.store.read(async (tx) => {
    const { group } = await requireGroupMember(tx, actor, input.ref.groupId);
    const file = await requireFile(tx, input.ref);
    return { group, files: [file], histories: input.embedHistory ? await historiesOf(tx, [file]) : undefined };
  });
}

/** @throws NotFoundError FILE_NOT_FOUND (also when the id names another group) */
export async function requireFile(tx: Tx, ref: ContentRef): Promise<CabinetFile> {
  const file = ref.kind === "CABINET" ? await tx.files.findById(ref.id) : undefined;
  if (!file || file.groupId !== ref.groupId) throw new NotFoundError("FILE_NOT_FOUND", "The file does not exist.");
  return file;
}

async function historiesOf(tx: Tx, files: readonly CabinetFile[]): Promise<Map<number, FileVersion[]>> {
  // Attachments (the ATTACH folder) have a single version and no history to embed.
  const stored = files.filter((file) => file.attachment === undefined);
  const byFile = new Map<number, FileVersion[]>(stored.map((file) => [file.id, []]));
  for (const version of await tx.files.listHistories(stored, LIMITS.historyEntries))
    byFile.get(version.fileId)?.push(version);
  return byFile;
}

/** Notifies the group's members but the actor (every member for an operator's change, `actorId` null), and on creation the members its memo names. */
export async function notifyFileChange(
  tx: Tx,
  file: CabinetFile,
  actorId: number | null,
  kind: "created" | "updated" | "version",
  at: number,
): Promise<void> {
  const cause =
    kind === "created"
      ? ({ kind } as const)
      : ({ kind: "updated", bodyChanged: false, ...(kind === "version" ? { change: kind } : {}) } as const);
  const item = { kind: "CABINET", groupId: file.groupId, id: file.id } as const;
  await tx.notifications.fanOut({ item, actorId, cause, at });
  // A memo is written only with the file's first version: that is when the members it names hear of it.
  if (kind === "created") await notifyMentions(tx, { item, commentNumber: null, text: file.memo, actorId, at });
}
