import { basename } from "node:path/posix";
import type { MultipartFile } from "@fastify/multipart";
import type { AttachmentDraft } from "../../../domain/attachment.js";
import { removeControlCharacters } from "../../../domain/text.js";

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;
const MAX_NAME_CHARS = 255;

/** What a file part says about itself, cleaned: a bare file name and a well-formed MIME type. */
export function attachmentDraft(part: MultipartFile, index: number): Omit<AttachmentDraft, "size"> {
  // Browsers of old sent whole paths; control characters would break headers and feeds, and a
  // bidi control would show another name and extension than the one saved.
  const bare = removeControlCharacters(basename((part.filename ?? "").replace(/\\/g, "/"))).trim();
  const fileName = [...bare].slice(0, MAX_NAME_CHARS).join("") || `file${index}`;
  const type = part.mimetype.trim().toLowerCase();
  return { fileName, contentType: MIME.test(type) ? type : "application/octet-stream" };
}
