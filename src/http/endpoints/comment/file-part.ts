import type { MultipartFile } from "@fastify/multipart";
import { type AttachmentDraft, attachmentDraftOf } from "../../../domain/attachment.js";

/** What a file part says about itself, cleaned: a bare file name and a well-formed MIME type. */
export function attachmentDraft(part: MultipartFile, index: number): Omit<AttachmentDraft, "size"> {
  return attachmentDraftOf(part.filename ?? "", part.mimetype, index);
}
