import type { FastifyReply, FastifyRequest } from "fastify";
import { type XmlElement, parseXml } from "../../../atom/parse.js";
import type { BlobStore } from "../../../blobs/blob-store.js";
import { ValidationError } from "../../../domain/errors.js";
import type { StagedFile } from "../../../services/comment/comment.js";
import type { Admission } from "../../../http-kit/admission.js";
import { receiveMultipart } from "../../multipart.js";
import { clip } from "../../../http-kit/query.js";

/** A received multipart comment: its XML, its files in the temporary area, and their cleanup. */
export interface Upload {
  readonly document: XmlElement;
  readonly files: readonly StagedFile[];
  /** Deletes every temporary file not committed (committed ones are already gone from there). */
  discard(): Promise<void>;
}

const TEXT_PARTS: ReadonlySet<string> = new Set(["default"]);
/** Every part the interface names: the XML and ten files, each at most once. */
const PART_NAMES: ReadonlySet<string> = new Set(["default", ...Array.from({ length: 10 }, (_, i) => `file${i}`)]);

/**
 * A checker that refuses a part the interface does not name (`file10`, `attachment`) or names
 * twice: such a part was once stored as one more attachment, and a client that sends one has
 * misread the interface.
 * @throws ValidationError MULTIPART_PART_INVALID
 */
function partNameChecker(): (name: string) => void {
  const seen = new Set<string>();
  return (name) => {
    if (!PART_NAMES.has(name))
      throw new ValidationError(
        "MULTIPART_PART_INVALID",
        `The part "${clip(name)}" is not one of default and file0 to file9.`,
      );
    if (seen.has(name)) throw new ValidationError("MULTIPART_PART_INVALID", `The part "${name}" is sent twice.`);
    seen.add(name);
  };
}

/**
 * Streams a `multipart/form-data` comment (or chat message) to temporary files, never holding a
 * file in memory: part `default` is the XML (read by `parse`), `file0`..`file9` the files. Any failure, a client going away or a
 * shutdown's grace period running out included, deletes every temporary file before the error leaves.
 * @throws ValidationError DEFAULT_PART_REQUIRED, TOO_MANY_FILES, MULTIPART_PART_INVALID, MULTIPART_MALFORMED; XmlParseError
 * @throws TooLargeError REQUEST_TOO_LARGE, FILE_TOO_LARGE, ATTACHMENTS_TOO_LARGE, XML_PART_TOO_LARGE
 * @throws UnavailableError TOO_MANY_UPLOADS, SHUTTING_DOWN
 */
export async function receiveUpload(
  request: FastifyRequest,
  reply: FastifyReply,
  blobs: BlobStore,
  admission: Admission,
  parse: (source: string) => XmlElement = parseXml,
): Promise<Upload> {
  const received = await receiveMultipart(request, reply, blobs, admission, {
    textParts: TEXT_PARTS,
    checkPart: partNameChecker(),
    filePart: () => "keep",
  });
  try {
    const xml = received.text.get("default");
    if (xml === undefined)
      throw new ValidationError(
        "DEFAULT_PART_REQUIRED",
        "The multipart body has no part named default holding the comment's XML.",
      );
    return { document: parse(xml), files: received.files, discard: received.discard };
  } catch (error) {
    await received.discard();
    reply.header("connection", "close");
    throw error;
  }
}
