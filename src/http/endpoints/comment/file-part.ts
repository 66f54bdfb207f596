import { basename } from "node:path/posix";
import type { MultipartFile } from "@fastify/multipart";
import type { AttachmentDraft } from "../../../domain/attachment.js";

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;
const MAX_NAME_CHARS = 255;

/** What a file part says about itself, cleaned: a bare file name and a well-formed MIME type. */
export function attachmentDraft(part: MultipartFile, index: number): Omit<AttachmentDraft, "size"> {
  // Browsers of old sent whole paths; control characters would break headers and feeds.
  const bare = basename((part.filename ?? "").replace(/\\/g, "/"))
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\x00-\x1f\x7f]/g, "")
    .trim();
  const fileName = [...bare].slice(0, MAX_NAME_CHARS).join("") || `file${index}`;
  const type = part.mimetype.trim().toLowerCase();
  return { fileName, contentType: MIME.test(type) ? type : "application/octet-stream" };
}
