// The operator's file commands (`kairan file ...`): people named by e-mail address, the bytes
// read from a path, then the same records as the web's (file-write.ts).
import type { Readable } from "node:stream";
import { type CabinetFile, checkFileComment, checkFileName, checkFileText } from "../../domain/file.js";
import type { ContentRef } from "../../domain/item-id.js";
import type { Tx } from "../../store/store.js";
import { requireGroup, requireMemberByEmail } from "../admin-lookup.js";
import { storeFileBytes } from "./file-content.js";
import { notifyFileChange, requireFile } from "./file.js";
import { recordFile, recordFileVersion } from "./file-write.js";
import { requireFolderOf } from "../group/folder-access.js";
import type { ServiceContext } from "../context.js";

/** A new file as an operator describes it. */
export interface NewFileInput {
  readonly groupId: number;
  readonly authorEmail: string;
  readonly fileName: string;
  readonly source: Readable | Uint8Array;
  readonly title: string;
  readonly memo: string;
  readonly folderId: number | null;
  readonly comment: string;
}

/**
 * Adds a file (version 1) to a group's shared folder; the author must be a member.
 * @throws ValidationError FILE_NAME_*, FILE_TITLE_TOO_LONG, FILE_MEMO_TOO_LONG, FILE_COMMENT_TOO_LONG, USER_NOT_MEMBER
 * @throws NotFoundError GROUP_NOT_FOUND, USER_NOT_FOUND, FOLDER_NOT_FOUND
 */
export async function uploadFileAsOperator(ctx: ServiceContext, input: NewFileInput): Promise<CabinetFile> {
  const text = checkFileText(input);
  checkFileName(input.fileName);
  checkFileComment(input.comment);
  const authorId = await ctx.store.read(async (tx) => {
    await requireGroup(tx, input.groupId);
    return (await requireMemberByEmail(tx, input.groupId, input.authorEmail)).user.id;
  });
  const version = await storeFileBytes(ctx.blobs, { ...input, authorId }, ctx.clock.now());
  const draft = { groupId: input.groupId, ...text, authorId, folderId: input.folderId };
  const check = async (tx: Tx) => {
    if (input.folderId !== null) await requireFolderOf(tx, input.groupId, input.folderId, "CABINET");
  };
  return recordFile(ctx, { draft, version, check });
}

/**
 * Adds the next version of a file; the name stays unless a new one is given.
 * @throws ValidationError FILE_NAME_*, FILE_COMMENT_TOO_LONG, USER_NOT_MEMBER; NotFoundError FILE_NOT_FOUND, USER_NOT_FOUND
 */
export async function uploadFileVersionAsOperator(
  ctx: ServiceContext,
  input: {
    ref: ContentRef;
    authorEmail: string;
    fileName: string | undefined;
    source: Readable | Uint8Array;
    comment: string;
  },
): Promise<CabinetFile> {
  if (input.fileName !== undefined) checkFileName(input.fileName);
  checkFileComment(input.comment);
  const { file, authorId } = await ctx.store.read(async (tx) => ({
    file: await requireFile(tx, input.ref),
    authorId: (await requireMemberByEmail(tx, input.ref.groupId, input.authorEmail)).user.id,
  }));
  const upload = {
    fileName: input.fileName ?? file.current.fileName,
    source: input.source,
    authorId,
    comment: input.comment,
  };
  const version = await storeFileBytes(ctx.blobs, upload, ctx.clock.now());
  return recordFileVersion(ctx, { version, authorId, find: () => Promise.resolve(file) });
}

/** Moves a file to the trash (listed under TRASH, still downloadable by members). @throws NotFoundError FILE_NOT_FOUND */
export async function trashFileAsOperator(ctx: ServiceContext, input: { ref: ContentRef }): Promise<CabinetFile> {
  return ctx.store.transaction(async (tx) => {
    const file = await requireFile(tx, input.ref);
    const at = ctx.clock.now();
    await tx.files.update(file.id, { trashed: true, at });
    await notifyFileChange(tx, file, null, "updated", at);
    return (await tx.files.findById(file.id)) ?? file;
  });
}
