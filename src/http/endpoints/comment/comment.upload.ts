import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import type { Readable, Writable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { MultipartFile, MultipartValue } from "@fastify/multipart";
import { type XmlElement, parseXml } from "../../../atom/parse.js";
import type { BlobStore, TempBlob } from "../../../blobs/blob-store.js";
import { attachmentsTooLarge, fileTooLarge, tooManyFiles } from "../../../domain/attachment.js";
import { TooLargeError, ValidationError } from "../../../domain/errors.js";
import { LIMITS } from "../../../domain/limits.js";
import type { StagedFile } from "../../../services/comment.js";
import type { Admission, UploadSlot } from "../../admission.js";
import { clip } from "../../query.js";
import { attachmentDraft } from "./file-part.js";

/** A received multipart comment: its XML, its files in the temporary area, and their cleanup. */
export interface Upload {
  readonly document: XmlElement;
  readonly files: readonly StagedFile[];
  /** Deletes every temporary file not committed (committed ones are already gone from there). */
  discard(): Promise<void>;
}

const FILE_PART = /^file([0-9]+)$/;

/**
 * Streams a `multipart/form-data` comment to temporary files, never holding a file in memory:
 * part `default` is the XML, `file0`..`file9` the files. Any failure, a client going away or a
 * shutdown's grace period running out included, deletes every temporary file before the error leaves.
 * @throws ValidationError DEFAULT_PART_REQUIRED, TOO_MANY_FILES, INVALID_FILE_PART, MULTIPART_MALFORMED; XmlParseError
 * @throws TooLargeError REQUEST_TOO_LARGE, FILE_TOO_LARGE, ATTACHMENTS_TOO_LARGE, XML_PART_TOO_LARGE
 * @throws UnavailableError TOO_MANY_UPLOADS, SHUTTING_DOWN
 */
export async function receiveUpload(request: FastifyRequest, reply: FastifyReply, blobs: BlobStore, admission: Admission): Promise<Upload> {
  // A refused upload is not read to its end (it may be 50 MB more, or endless when chunked): the
  // connection closes after the error answer instead of waiting for a body nobody will read.
  const refuse = (error: unknown) => {
    reply.header("connection", "close");
    return error;
  };
  let slot: UploadSlot;
  try {
    checkDeclaredLength(request.headers["content-length"]);
    slot = admission.enterUpload();
  } catch (error) {
    throw refuse(error);
  }
  const temps: TempBlob[] = [];
  const discard = async () => void (await Promise.all(temps.map((temp) => blobs.discard(temp))));
  // A client that goes away half-way, or a shutdown that cannot wait any longer: end every write
  // at once. Destroying the sinks, not the source, is what makes pipeline() settle (stack.md §5).
  const stopWriting = (reason: unknown) => {
    for (const temp of temps) temp.stream.destroy(reason instanceof Error ? reason : new Error(String(reason)));
  };
  const onClose = () => {
    if (!request.raw.readableEnded) stopWriting(new Error("the client went away"));
  };
  const onAbort = () => stopWriting(slot.signal.reason);
  request.raw.on("close", onClose);
  slot.signal.addEventListener("abort", onAbort);
  try {
    // A stalled client may never send the next part: the abort answers without waiting for it.
    const { xml, files } = await untilAborted(readParts(request, blobs, temps, slot.signal), slot.signal);
    if (xml === undefined) throw new ValidationError("DEFAULT_PART_REQUIRED", "The multipart body has no part named default holding the comment's XML.");
    return { document: parseXml(xml), files, discard };
  } catch (error) {
    await discard();
    throw refuse(translate(error));
  } finally {
    request.raw.off("close", onClose);
    slot.signal.removeEventListener("abort", onAbort);
    slot.leave();
  }
}

/** `work`, or the signal's reason as soon as it aborts; a `work` left behind may fail unobserved. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

async function readParts(request: FastifyRequest, blobs: BlobStore, temps: TempBlob[], signal: AbortSignal): Promise<{ xml: string | undefined; files: StagedFile[] }> {
  let xml: string | undefined;
  const files: StagedFile[] = [];
  let total = 0;
  const parts = request.parts({
    // One more file than allowed (plus `default` sent as a file) reaches our own count, which says TOO_MANY_FILES.
    limits: { fileSize: LIMITS.fileMaxBytes, files: LIMITS.filesPerComment + 2, fields: 20, fieldSize: LIMITS.xmlBodyMaxBytes, parts: 40 },
  });
  for await (const part of parts) {
    if (part.type === "field") {
      if (part.fieldname === "default") xml = fieldText(part);
      continue;
    }
    if (part.fieldname === "default") {
      xml = await readSmallFile(part.file);
      continue;
    }
    if (FILE_PART.exec(part.fieldname) === null) {
      throw new ValidationError("INVALID_FILE_PART", `File parts are named file0 to file9; "${clip(part.fieldname)}" is not.`);
    }
    if (files.length >= LIMITS.filesPerComment) throw tooManyFiles();
    const temp = await blobs.createTemp();
    // Aborted while the file was being created: the cleanup has already run, so this one goes now.
    if (signal.aborted) {
      await blobs.discard(temp);
      throw signal.reason;
    }
    temps.push(temp);
    const draft = attachmentDraft(part, files.length);
    const size = await receiveFile(part, temp.stream, LIMITS.multipartMaxBytes - total, draft.fileName);
    total += size;
    files.push({ draft: { ...draft, size }, temp });
  }
  return { xml, files };
}

/** Streams one file part into its temporary file, counting bytes against both limits. */
async function receiveFile(part: MultipartFile, sink: Writable, allowance: number, fileName: string): Promise<number> {
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > LIMITS.fileMaxBytes) callback(fileTooLarge(fileName));
      else if (size > allowance) callback(attachmentsTooLarge());
      else callback(null, chunk);
    },
  });
  await pipeline(part.file, counter, sink);
  // busboy's per-file limit truncates silently (app.ts turns the plugin's own throw off): a cut-off file must never pass as a whole one.
  if (part.file.truncated) throw fileTooLarge(fileName);
  return size;
}

function fieldText(part: MultipartValue): string {
  if (part.valueTruncated) throw xmlTooLarge();
  return String(part.value);
}

async function readSmallFile(file: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > LIMITS.xmlBodyMaxBytes) throw xmlTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function xmlTooLarge(): TooLargeError {
  return new TooLargeError("XML_PART_TOO_LARGE", `The part default (the XML) is larger than ${LIMITS.xmlBodyMaxBytes} bytes.`);
}

/** Refuses at once a body that announces more than files and envelope may need. */
function checkDeclaredLength(header: string | undefined): void {
  const declared = header === undefined ? undefined : Number(header);
  if (declared !== undefined && declared > LIMITS.multipartMaxBytes + LIMITS.multipartEnvelopeBytes) {
    throw new TooLargeError("REQUEST_TOO_LARGE", `The request body is larger than ${LIMITS.multipartMaxBytes} bytes (50 MB) of files allow.`);
  }
}

/** Parser limits and malformed bodies become our errors; faults of the machine (disk, I/O) stay faults. */
function translate(error: unknown): unknown {
  if (!(error instanceof Error) || "syscall" in error) return error;
  const code = (error as { code?: unknown }).code;
  if (code === "FST_FILES_LIMIT") return tooManyFiles();
  if (typeof code === "string" && !code.startsWith("FST_")) return error;
  if (code === undefined && error.constructor !== Error) return error;
  return new ValidationError("MULTIPART_MALFORMED", "The multipart body could not be read (malformed, cut off, or too many parts).");
}
