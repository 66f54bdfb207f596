import type { Readable } from "node:stream";
import type { BlobStore } from "../blobs/blob-store.js";
import type { Actor } from "../domain/access.js";
import { NotFoundError } from "../domain/errors.js";
import type { AttachmentRef, ItemRef } from "../domain/item-id.js";
import type { Store } from "../store/store.js";
import { requireCommentParent } from "./comment.js";
import { requireGroupMember } from "./group-access.js";

/** What `/api/fileDownload/V2` can fetch: a comment's attachment now, shared-folder files later. */
export type DownloadRef = AttachmentRef | ItemRef;

/** Bytes to send, with what the headers say about them. */
export interface Download {
  readonly fileName: string;
  readonly contentType: string;
  readonly size: number;
  readonly body: Readable;
}

function notFound(): NotFoundError {
  return new NotFoundError("FILE_NOT_FOUND", "The file does not exist.");
}

/**
 * Opens a file for a member of its group. The one switch over downloadable kinds.
 * @throws NotFoundError FILE_NOT_FOUND, GROUP_NOT_FOUND, TOPIC_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED
 */
export async function openDownload(store: Store, blobs: BlobStore, actor: Actor, ref: DownloadRef): Promise<Download> {
  switch (ref.kind) {
    case "ATTACHMENT": {
      const attachment = await store.read(async (tx) => {
        await requireGroupMember(tx, actor, ref.parent.groupId);
        await requireCommentParent(tx, ref.parent);
        const comment = await tx.comments.find(ref.parent, ref.commentNumber);
        return comment && (await tx.attachments.find(comment.id, ref.position));
      });
      if (!attachment) throw notFound();
      const body = await blobs.open(attachment.blobKey);
      if (!body) throw notFound();
      return { fileName: attachment.fileName, contentType: attachment.contentType, size: attachment.size, body };
    }
    default:
      // Shared-folder files (CABINET) arrive with the files endpoint.
      throw notFound();
  }
}
