// Streaming `multipart/form-data` into the blob store's temporary area, for the comment endpoint
// (parts `default` + `file0`..`file9`) and the web's comment form (fields + `files`): files are
// never held in memory, the limits of the specification are counted while the bytes arrive, and
// every temporary file is deleted when anything goes wrong.
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import type { Readable, Writable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { MultipartFile, MultipartValue } from "@fastify/multipart";
import type { BlobStore, TempBlob } from "../blobs/blob-store.js";
import type { Admission, UploadSlot } from "../http-kit/admission.js";
import { attachmentsTooLarge, fileTooLarge, tooManyFiles } from "../domain/attachment.js";
import { TooLargeError, ValidationError } from "../domain/errors.js";
import { LIMITS } from "../domain/limits.js";
import type { StagedFile } from "../services/comment/comment.js";
import { attachmentDraft } from "./endpoints/comment/file-part.js";
import { clip } from "../http-kit/query.js";
import { receivedBytes } from "./received-bytes.js";

/** How one form's parts are read. */
export interface MultipartRules {
  /** Parts read as text, whether sent as a field or as a file; other fields are ignored. */
  readonly textParts: ReadonlySet<string>;
  /**
   * Decides on a file part before any of its bytes are stored: `keep` stages it, `skip` drains
   * it (an empty file input). Throwing refuses the whole request (a bad part name, a form
   * without its CSRF token before the files).
   */
  filePart(name: string, fileName: string, textSoFar: ReadonlyMap<string, string>): "keep" | "skip";
  /**
   * Runs for every part, text or file, before any of it is read: throwing refuses the whole
   * request (the API's parts are named exactly, each once). Without it, unknown fields are ignored.
   */
  checkPart?(name: string): void;
}

/** A received form: its text parts, its files in the temporary area, and their cleanup. */
export interface ReceivedMultipart {
  readonly text: ReadonlyMap<string, string>;
  readonly files: readonly StagedFile[];
  /** Deletes every temporary file not committed (committed ones are already gone from there). */
  discard(): Promise<void>;
}

/**
 * Streams a multipart body to temporary files. Any failure, a client going away or a shutdown's
 * grace period running out included, deletes every temporary file before the error leaves.
 * @throws ValidationError TOO_MANY_FILES, MULTIPART_MALFORMED, and whatever `rules.filePart` throws
 * @throws TooLargeError REQUEST_TOO_LARGE, FILE_TOO_LARGE, ATTACHMENTS_TOO_LARGE, XML_PART_TOO_LARGE
 * @throws UnavailableError TOO_MANY_UPLOADS, SHUTTING_DOWN
 */
export async function receiveMultipart(
  request: FastifyRequest,
  reply: FastifyReply,
  blobs: BlobStore,
  admission: Admission,
  rules: MultipartRules,
): Promise<ReceivedMultipart> {
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
    const { text, files } = await untilAborted(readParts(request, blobs, temps, rules, slot.signal), slot.signal);
    return { text, files, discard };
  } catch (error) {
    await discard();
    throw refuse(translateMultipartError(error));
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

async function readParts(
  request: FastifyRequest,
  blobs: BlobStore,
  temps: TempBlob[],
  rules: MultipartRules,
  signal: AbortSignal,
): Promise<{ text: Map<string, string>; files: StagedFile[] }> {
  const text = new Map<string, string>();
  const files: StagedFile[] = [];
  let total = 0;
  const parts = request.parts({
    // One more file than allowed (plus a text part sent as a file) reaches our own count, which says TOO_MANY_FILES.
    limits: {
      fileSize: LIMITS.fileMaxBytes,
      files: LIMITS.filesPerComment + 2,
      fields: 20,
      fieldSize: LIMITS.xmlBodyMaxBytes,
      parts: 40,
    },
  });
  for await (const part of parts) {
    rules.checkPart?.(part.fieldname);
    if (part.type === "field") {
      if (rules.textParts.has(part.fieldname)) text.set(part.fieldname, fieldText(part));
      continue;
    }
    if (rules.textParts.has(part.fieldname)) {
      text.set(part.fieldname, await readSmallFile(part.file));
      continue;
    }
    if (rules.filePart(part.fieldname, part.filename ?? "", text) === "skip") {
      part.file.resume();
      continue;
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
  return { text, files };
}

/** Streams one file part into its temporary file, counting bytes against both limits. */
async function receiveFile(part: MultipartFile, sink: Writable, allowance: number, fileName: string): Promise<number> {
  let size = 0;
  const received = receivedBytes();
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      received.add(chunk.length);
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
  if (part.valueTruncated) throw textTooLarge(part.fieldname);
  return String(part.value);
}

async function readSmallFile(file: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > LIMITS.xmlBodyMaxBytes) throw textTooLarge("default");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function textTooLarge(name: string): TooLargeError {
  return name === "default"
    ? new TooLargeError(
        "XML_PART_TOO_LARGE",
        `The part default (the XML) is larger than ${LIMITS.xmlBodyMaxBytes} bytes.`,
      )
    : new TooLargeError("FIELD_TOO_LARGE", `The form field ${name} is larger than ${LIMITS.xmlBodyMaxBytes} bytes.`);
}

/** How a form of a few text fields and at most one small file is read (the account picture). */
export interface SmallFileRules {
  /** The file part's name; any other file part is refused. */
  readonly fileField: string;
  readonly maxBytes: number;
  /** The error of a file beyond `maxBytes`. */
  tooLarge(): Error;
  /** Runs before the file's bytes are read, with the fields so far (a form's CSRF token comes first). */
  beforeFile(textSoFar: ReadonlyMap<string, string>): void;
}

/** Room for the text fields and the part headers around a small file. */
const SMALL_FORM_ENVELOPE_BYTES = 16 * 1024;

/**
 * Reads a multipart form whose one file is small enough to hold in memory: an upload slot is
 * taken all the same, every byte counted, and a refused body is not read to its end.
 * @throws ValidationError INVALID_FILE_PART, MULTIPART_MALFORMED, and what `rules` throw
 * @throws UnavailableError TOO_MANY_UPLOADS, SHUTTING_DOWN
 */
export async function receiveSmallFile(
  request: FastifyRequest,
  reply: FastifyReply,
  admission: Admission,
  rules: SmallFileRules,
): Promise<{ text: ReadonlyMap<string, string>; file: Uint8Array | undefined; fileName: string | undefined }> {
  const refuse = (error: unknown) => {
    reply.header("connection", "close");
    return error;
  };
  if (Number(request.headers["content-length"] ?? "0") > rules.maxBytes + SMALL_FORM_ENVELOPE_BYTES)
    throw refuse(rules.tooLarge());
  const slot = admission.enterUpload();
  try {
    const text = new Map<string, string>();
    let file: Uint8Array | undefined;
    let fileName: string | undefined;
    // One file more than allowed reaches the loop, which names the problem.
    const limits = { fileSize: rules.maxBytes, files: 2, fields: 8, fieldSize: 4096, parts: 10 };
    for await (const part of request.parts({ limits })) {
      if (part.type === "field") {
        text.set(part.fieldname, fieldText(part));
        continue;
      }
      rules.beforeFile(text);
      if (part.fieldname !== rules.fileField || file !== undefined)
        throw new ValidationError(
          "INVALID_FILE_PART",
          `The form sends one file, named ${rules.fileField}; "${clip(part.fieldname)}" is not it.`,
        );
      file = await readSmallPart(part, rules);
      fileName = part.filename;
    }
    return { text, file, fileName };
  } catch (error) {
    throw refuse(translateMultipartError(error));
  } finally {
    slot.leave();
  }
}

async function readSmallPart(part: MultipartFile, rules: SmallFileRules): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  const received = receivedBytes();
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    size += chunk.length;
    received.add(chunk.length);
    if (size > rules.maxBytes) throw rules.tooLarge();
    chunks.push(chunk);
  }
  // busboy's limit truncates silently: a cut-off file must never pass as a whole one.
  if (part.file.truncated) throw rules.tooLarge();
  return Buffer.concat(chunks);
}

/** Refuses at once a body that announces more than files and envelope may need. */
function checkDeclaredLength(header: string | undefined): void {
  const declared = header === undefined ? undefined : Number(header);
  if (declared !== undefined && declared > LIMITS.multipartMaxBytes + LIMITS.multipartEnvelopeBytes) {
    throw new TooLargeError(
      "REQUEST_TOO_LARGE",
      `The request body is larger than ${LIMITS.multipartMaxBytes} bytes (50 MB) of files allow.`,
    );
  }
}

/** Parser limits and malformed bodies become our errors; faults of the machine (disk, I/O) stay faults. */
export function translateMultipartError(error: unknown): unknown {
  if (!(error instanceof Error) || "syscall" in error) return error;
  const code = (error as { code?: unknown }).code;
  if (code === "FST_FILES_LIMIT") return tooManyFiles();
  if (typeof code === "string" && !code.startsWith("FST_")) return error;
  if (code === undefined && error.constructor !== Error) return error;
  return new ValidationError(
    "MULTIPART_MALFORMED",
    "The multipart body could not be read (malformed, cut off, or too many parts).",
  );
}
