import { Readable } from "node:stream";
import type { Actor } from "../../domain/access.js";
import { NotFoundError } from "../../domain/errors.js";
import type { AttachmentRef, ChatAttachmentRef, ContentRef, ItemRef } from "../../domain/item-id.js";
import { requireRoom } from "../chat/chat.js";
import { requireCommentParent } from "../comment/comment.js";
import { requireFile } from "./file.js";
import { requireGroupMember } from "../group/group-access.js";
import type { ServiceContext } from "../context.js";

/** What `/api/fileDownload/V2` can fetch: a comment's or chat message's attachment, or a shared-folder file (CABINET). */
export type DownloadRef = AttachmentRef | ChatAttachmentRef | ItemRef;

/** A download request: which item, which file version (current when absent), and whether its thumbnail. */
export interface DownloadRequest {
  readonly ref: DownloadRef;
  /** Only for shared-folder files; ignored for attachments, which have no versions. */
  readonly version: number | undefined;
  /** Only for shared-folder files; ignored for attachments. */
  readonly thumbnail: boolean;
}

/** Bytes to send, with what the headers say about them. */
export interface Download {
  readonly fileName: string;
  readonly contentType: string;
  readonly size: number;
  readonly body: Readable;
  /** `inline` for thumbnails (shown in place), `attachment` for everything else. */
  readonly disposition: "attachment" | "inline";
}

function fileNotFound(): NotFoundError {
  return new NotFoundError("FILE_NOT_FOUND", "The file does not exist.");
}

/**
 * Opens a file for a member of its group. The one switch over downloadable kinds.
 * @throws NotFoundError FILE_NOT_FOUND, VERSION_NOT_FOUND, THUMBNAIL_NOT_FOUND, ITEM_NOT_FOUND (kinds without bytes),
 *   GROUP_NOT_FOUND, TOPIC_NOT_FOUND, NOT_FOUND (a room the caller is not in); ForbiddenError GROUP_NOT_JOINED
 */
export async function openDownload(ctx: ServiceContext, actor: Actor, input: DownloadRequest): Promise<Download> {
  const { ref } = input;
  switch (ref.kind) {
    case "ATTACHMENT": {
      const attachment = await ctx.store.read(async (tx) => {
        await requireGroupMember(tx, actor, ref.parent.groupId);
        await requireCommentParent(tx, ref.parent);
        const comment = await tx.comments.find(ref.parent, ref.commentNumber);
        return comment && (await tx.attachments.find(comment.id, ref.position));
      });
      if (!attachment) throw fileNotFound();
      const body = await ctx.blobs.open(attachment.blobKey);
      if (!body) throw fileNotFound();
      return {
        fileName: attachment.fileName,
        contentType: attachment.contentType,
        size: attachment.size,
        body,
        disposition: "attachment",
      };
    }
    case "CHAT_ATTACHMENT":
      return openChatAttachment(ctx, actor, ref);
    case "CABINET":
      return openFileVersion(ctx, actor, ref, input);
    default:
      throw new NotFoundError("ITEM_NOT_FOUND", "There is nothing to download under this id.");
  }
}

/** A chat message's file, for a member of its room (others are told the room does not exist). */
async function openChatAttachment(ctx: ServiceContext, actor: Actor, ref: ChatAttachmentRef): Promise<Download> {
  const attachment = await ctx.store.read(async (tx) => {
    await requireRoom(tx, actor.user.id, ref.roomId);
    return tx.chatAttachments.find(ref.roomId, ref.messageNumber, ref.position);
  });
  if (!attachment) throw fileNotFound();
  const body = await ctx.blobs.open(attachment.blobKey);
  if (!body) throw fileNotFound();
  const { fileName, contentType, size } = attachment;
  return { fileName, contentType, size, body, disposition: "attachment" };
}

/** A version of a shared-folder file (the current one by default), or its thumbnail. */
async function openFileVersion(
  ctx: ServiceContext,
  actor: Actor,
  ref: ContentRef,
  input: { version: number | undefined; thumbnail: boolean },
): Promise<Download> {
  const version = await ctx.store.read(async (tx) => {
    await requireGroupMember(tx, actor, ref.groupId);
    const file = await requireFile(tx, ref);
    const found = input.version === undefined ? file.current : await tx.files.findVersion(file.id, input.version);
    if (!found) throw new NotFoundError("VERSION_NOT_FOUND", `The file has no version ${input.version}.`);
    return found;
  });
  if (!input.thumbnail) {
    const body = await ctx.blobs.open(version.blobKey);
    if (!body) throw fileNotFound();
    return {
      fileName: version.fileName,
      contentType: version.mimeType,
      size: version.size,
      body,
      disposition: "attachment",
    };
  }
  if (version.thumbnailKey === null)
    throw new NotFoundError("THUMBNAIL_NOT_FOUND", "This file has no thumbnail (it is not an image).");
  const stream = await ctx.blobs.open(version.thumbnailKey);
  if (!stream) throw new NotFoundError("THUMBNAIL_NOT_FOUND", "This file has no thumbnail.");
  // Thumbnails are small (a 160-pixel PNG); reading one whole gives an exact Content-Length without storing its size.
  const bytes = await collect(stream);
  return {
    fileName: `${baseName(version.fileName)}-thumbnail.png`,
    contentType: "image/png",
    size: bytes.length,
    body: Readable.from([bytes]),
    disposition: "inline",
  };
}

function baseName(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
