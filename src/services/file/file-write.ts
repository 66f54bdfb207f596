// What members do to their group's shared files (the web interface): upload, add a version, move
// between folders, trash and restore, delete for good from the trash. `recordFile` and
// `recordFileVersion` hold the only inserts of files and versions; the operator's commands
// (file-admin.ts) go through them too.
import type { Actor } from "../../domain/access.js";
import {
  type CabinetFile,
  checkFileComment,
  checkFileName,
  checkFileText,
  requireFileNotTrashed,
  requireFileTrashed,
  requireMayDeleteFile,
} from "../../domain/file.js";
import { ValidationError } from "../../domain/errors.js";
import type { ContentRef } from "../../domain/item-id.js";
import type { NewFileVersion } from "../../store/queries/files.repo.js";
import type { Tx } from "../../store/store.js";
import { removeBlobs, removeCommentsOf, removeItemRows } from "../comment/comment-detail.js";
import type { StagedFile } from "../comment/comment.js";
import { recordOrDiscard, storeStagedFileBytes } from "./file-content.js";
import { notifyFileChange, requireFile } from "./file.js";
import { requireFolderOf } from "../group/folder-access.js";
import { requireGroupMember } from "../group/group-access.js";
import type { ServiceContext } from "../context.js";
import { queueItemDeleted } from "../webhook/enqueue.js";

/** A new shared file as a member's form describes it. */
export interface FileUploadInput {
  readonly groupId: number;
  readonly title: string;
  readonly memo: string;
  readonly folderId: number | null;
  /** The received bytes; undefined when the form came without a file. */
  readonly file: StagedFile | undefined;
  /**
   * When the folder already holds a file of the uploaded name: make a separate file (the API's
   * and the command line's way, and the default), add a version to that file, or refuse with
   * FILE_NAME_EXISTS so that the person can choose (the browser's upload form).
   */
  readonly sameName?: SameNameChoice;
}

/** What an upload does with a file name the folder already holds ({@link FileUploadInput.sameName}). */
export type SameNameChoice = "separate" | "version" | "ask";

/**
 * Adds a file (version 1) to the group's shared folder; the other members are notified. The
 * staged bytes are put in place only after every check passed, and taken back if recording fails.
 * @throws ValidationError FILE_REQUIRED, FILE_NAME_* (FILE_NAME_EXISTS when asked to), FILE_TITLE_TOO_LONG, FILE_MEMO_TOO_LONG
 * @throws NotFoundError GROUP_NOT_FOUND, FOLDER_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED
 */
export async function uploadFile(ctx: ServiceContext, actor: Actor, input: FileUploadInput): Promise<CabinetFile> {
  const text = checkFileText(input);
  const staged = requireStaged(input.file);
  const checkPlace = async (tx: Tx) => {
    await requireGroupMember(tx, actor, input.groupId);
    if (input.folderId !== null) await requireFolderOf(tx, input.groupId, input.folderId, "CABINET");
  };
  const namesake = await ctx.store.read(async (tx) => {
    await checkPlace(tx);
    if ((input.sameName ?? "separate") === "separate") return undefined;
    return tx.files.findLiveByName(input.groupId, input.folderId, staged.draft.fileName);
  });
  if (namesake !== undefined) {
    if (input.sameName === "ask")
      throw new ValidationError(
        "FILE_NAME_EXISTS",
        `A file named "${staged.draft.fileName}" is already in this folder: upload it as a new version of that file, or as a separate file.`,
      );
    const ref = { kind: "CABINET", groupId: namesake.groupId, id: namesake.id } as const;
    return uploadFileVersion(ctx, actor, { ref, comment: "", file: input.file });
  }
  const upload = { fileName: staged.draft.fileName, size: staged.draft.size, authorId: actor.user.id, comment: "" };
  const version = await storeStagedFileBytes(ctx.blobs, staged.temp, upload, ctx.clock.now());
  const draft = { groupId: input.groupId, ...text, authorId: actor.user.id, folderId: input.folderId };
  return recordFile(ctx, { draft, version, check: checkPlace });
}

/** A file whose bytes are stored, ready to record: `check` runs again inside the transaction. */
export interface FileRecord {
  readonly draft: { groupId: number; title: string; memo: string; authorId: number; folderId: number | null };
  readonly version: NewFileVersion;
  readonly check: (tx: Tx) => Promise<void>;
}

/**
 * Records a file (version 1) whose bytes are stored, and notifies the other members; the bytes
 * are taken back if recording fails. The only insert of files.
 */
export async function recordFile(ctx: ServiceContext, record: FileRecord): Promise<CabinetFile> {
  const { draft, version } = record;
  return recordOrDiscard(ctx.blobs, version, () =>
    ctx.store.transaction(async (tx) => {
      await record.check(tx);
      const file = await tx.files.insert({ ...draft, trashed: false }, version);
      await notifyFileChange(tx, file, draft.authorId, "created", version.at);
      return file;
    }),
  );
}

/**
 * Records the next version (bytes stored) of the file `find` returns inside the transaction, and
 * notifies the other members; the bytes are taken back if recording fails. The only insert of versions.
 */
export async function recordFileVersion(
  ctx: ServiceContext,
  record: { version: NewFileVersion; authorId: number; find: (tx: Tx) => Promise<CabinetFile> },
): Promise<CabinetFile> {
  const { version } = record;
  return recordOrDiscard(ctx.blobs, version, () =>
    ctx.store.transaction(async (tx) => {
      const file = await record.find(tx);
      const changed = await tx.files.addVersion(file.id, version);
      await notifyFileChange(tx, changed, record.authorId, "version", version.at);
      return changed;
    }),
  );
}

/**
 * Adds the next version of a file under the uploaded file's name; the history keeps the newest five.
 * @throws ValidationError FILE_REQUIRED, FILE_NAME_*, FILE_COMMENT_TOO_LONG
 * @throws NotFoundError FILE_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED; ConflictError FILE_IN_TRASH
 */
export async function uploadFileVersion(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef; comment: string; file: StagedFile | undefined },
): Promise<CabinetFile> {
  const comment = checkFileComment(input.comment);
  const staged = requireStaged(input.file);
  const findLive = async (tx: Tx) => {
    await requireGroupMember(tx, actor, input.ref.groupId);
    const file = await requireFile(tx, input.ref);
    requireFileNotTrashed(file);
    return file;
  };
  await ctx.store.read(findLive);
  const upload = { fileName: staged.draft.fileName, size: staged.draft.size, authorId: actor.user.id, comment };
  const version = await storeStagedFileBytes(ctx.blobs, staged.temp, upload, ctx.clock.now());
  return recordFileVersion(ctx, { version, authorId: actor.user.id, find: findLive });
}

/**
 * Files a file under a folder of the group's shared folder, or under none (`folderId` null).
 * @throws NotFoundError FILE_NOT_FOUND, FOLDER_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED; ConflictError FILE_IN_TRASH
 */
export async function moveFile(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef; folderId: number | null },
): Promise<CabinetFile> {
  return ctx.store.transaction(async (tx) => {
    await requireGroupMember(tx, actor, input.ref.groupId);
    const file = await requireFile(tx, input.ref);
    requireFileNotTrashed(file);
    if (input.folderId !== null) await requireFolderOf(tx, input.ref.groupId, input.folderId, "CABINET");
    if (file.folderId !== input.folderId)
      await tx.files.update(file.id, { folderId: input.folderId, at: ctx.clock.now() });
    return (await tx.files.findById(file.id)) ?? file;
  });
}

/**
 * Moves a file to the trash or back out of it (the members are told, as of any change); asking
 * for the state the file is already in changes nothing.
 * @throws NotFoundError FILE_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED
 */
export async function setFileTrashed(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef; trashed: boolean },
): Promise<CabinetFile> {
  return ctx.store.transaction(async (tx) => {
    await requireGroupMember(tx, actor, input.ref.groupId);
    const file = await requireFile(tx, input.ref);
    if (file.trashed === input.trashed) return file;
    const at = ctx.clock.now();
    await tx.files.update(file.id, { trashed: input.trashed, at });
    await notifyFileChange(tx, file, actor.user.id, "updated", at);
    return (await tx.files.findById(file.id)) ?? file;
  });
}

/**
 * Deletes a file from the trash for good: every version, its comments with their attachments,
 * and every like, favorite and notification of them. The bytes go once the rows are gone.
 * @throws NotFoundError FILE_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED, FILE_DELETE_FORBIDDEN
 * @throws ConflictError FILE_NOT_IN_TRASH
 */
export async function deleteFile(ctx: ServiceContext, actor: Actor, input: { ref: ContentRef }): Promise<CabinetFile> {
  const { file, keys } = await ctx.store.transaction(async (tx) => {
    const { membership } = await requireGroupMember(tx, actor, input.ref.groupId);
    const found = await requireFile(tx, input.ref);
    requireMayDeleteFile(found, actor.user.id, membership);
    requireFileTrashed(found);
    const commentKeys = await removeCommentsOf(tx, input.ref);
    await removeItemRows(tx, "CABINET", [found.id]);
    const fileKeys = await tx.files.remove(found.id);
    await queueItemDeleted(tx, input.ref, actor.user.id, ctx.clock.now());
    return { file: found, keys: [...commentKeys, ...fileKeys] };
  });
  await removeBlobs(ctx.blobs, keys);
  return file;
}

/** @throws ValidationError FILE_REQUIRED, FILE_NAME_* */
function requireStaged(file: StagedFile | undefined): StagedFile {
  if (file === undefined) throw new ValidationError("FILE_REQUIRED", "Choose a file to upload.");
  checkFileName(file.draft.fileName);
  return file;
}
