// A message's DATA, read once as it arrives: parsed by mailparser's streaming parser, its
// attachments written to the blob store's temporary area (never held in memory), the comment
// limits counted while the bytes arrive. Whatever happens the SMTP stream is read to its end,
// so the listener can always answer, and a message the client did not finish is never posted.
import type { Readable } from "node:stream";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type AddressObject, type AttachmentStream, type Headers, MailParser } from "mailparser";
import type { BlobStore, TempBlob } from "../blobs/blob-store.js";
import { attachmentDraftOf, attachmentsTooLarge, fileTooLarge, tooManyFiles } from "../domain/attachment.js";
import { type DomainError, TooLargeError } from "../domain/errors.js";
import { LIMITS, MAIL_REPLY_LIMITS } from "../domain/limits.js";
import type { StagedFile } from "../services/comment/comment.js";
import type { ReceivedReply } from "../services/mail-reply/reply-post.js";

/** A message as read: the reply in it, or why it cannot be posted. */
export interface ReadMessage {
  readonly reply: ReceivedReply;
  /** An out-of-office message or another automatic reply (RFC 3834): never posted. */
  readonly automatic: boolean;
  /** A limit the message broke while it was read (too many or too large files, text too long to read). */
  readonly refusal: DomainError | undefined;
  /** The message did not arrive whole (the client went away) or could not be read: nothing may be posted. */
  readonly broken: Error | undefined;
  /** Deletes the attachments' temporary files that were not committed. */
  discard(): Promise<void>;
}

/** Reads `stream` (a DATA stream of smtp-server) to its end. Never rejects: a fault is `broken`. */
export async function readMessage(stream: Readable, blobs: BlobStore): Promise<ReadMessage> {
  const state: State = { files: [], temps: [], total: 0, refusal: undefined, broken: undefined };
  const parser = new MailParser({
    skipImageLinks: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    maxHtmlLengthToParse: MAIL_REPLY_LIMITS.bodyMaxChars,
    checksumAlgo: false,
  });
  let headers: Headers | undefined;
  let text = "";
  const writes: Promise<void>[] = [];
  parser.on("headers", (parsed: Headers) => (headers = parsed));
  parser.on("data", (data: AttachmentStream | { type: "text"; text?: string; textConversionError?: Error }) => {
    if (data.type === "text") {
      text = data.text ?? "";
      if (text === "" && data.textConversionError !== undefined) state.refusal ??= textTooLarge();
      // Even with its quote, no reply is this long: it is never handed to the text's parsing.
      if (text.length > MAIL_REPLY_LIMITS.bodyMaxChars) {
        state.refusal ??= textTooLarge();
        text = "";
      }
    } else {
      writes.push(receiveAttachment(data, blobs, state));
    }
  });
  const parsed = new Promise<void>((resolve) => {
    parser.once("end", resolve);
    parser.once("close", resolve);
    parser.once("error", (error: Error) => {
      state.broken ??= error;
      resolve();
    });
  });
  const ended = untilEnd(stream, parser, state);
  // Bytes beyond the size limit are read and dropped (smtp-server answers 552 for them itself).
  stream.pipe(cap(MAIL_REPLY_LIMITS.messageMaxBytes)).pipe(parser);
  await ended;
  await parsed;
  await Promise.allSettled(writes);
  const discard = async () => void (await Promise.all(state.temps.map((temp) => blobs.discard(temp))));
  return {
    reply: { from: fromAddresses(headers), text, files: state.files, messageId: messageIdOf(headers) },
    automatic: headers !== undefined && isAutomatic(headers),
    refusal: state.refusal,
    broken: state.broken,
    discard,
  };
}

/** The message's Message-ID as written (angle brackets included), when it has one of a sane length. */
function messageIdOf(headers: Headers | undefined): string | undefined {
  const value = headers?.get("message-id");
  if (typeof value !== "string") return undefined;
  const id = value.trim();
  return id.length > 0 && id.length <= 998 ? id : undefined;
}

interface State {
  readonly files: StagedFile[];
  readonly temps: TempBlob[];
  total: number;
  refusal: DomainError | undefined;
  broken: Error | undefined;
}

/** Resolves once the SMTP stream has ended or broken off; a broken stream stops the parser. */
function untilEnd(stream: Readable, parser: MailParser, state: State): Promise<void> {
  return new Promise((resolve) => {
    stream.once("end", resolve);
    const broke = (error?: Error) => {
      if (stream.readableEnded) return;
      state.broken ??= error ?? new Error("the message ended before it was received in full");
      parser.destroy();
      resolve();
    };
    stream.once("error", broke);
    stream.once("close", () => broke());
  });
}

/** Passes the first `max` bytes and drops the rest, still reading them all. */
function cap(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const room = Math.max(0, max - seen);
      seen += chunk.length;
      callback(null, room >= chunk.length ? chunk : chunk.subarray(0, room));
    },
  });
}

/**
 * One attachment into a temporary file, its bytes counted against the comment limits. Pieces of
 * an HTML body (`related`: signature logos, quoted pictures) are not attachments of the reply. A
 * file over a limit is read to its end and dropped, and the limit is the message's refusal; the
 * parser waits for `release()`, which always comes.
 */
async function receiveAttachment(attachment: AttachmentStream, blobs: BlobStore, state: State): Promise<void> {
  try {
    if (attachment.related === true || state.refusal !== undefined || state.broken !== undefined) {
      await drain(attachment.content);
      return;
    }
    if (state.files.length >= LIMITS.filesPerComment) {
      state.refusal = tooManyFiles();
      await drain(attachment.content);
      return;
    }
    const draft = attachmentDraftOf(attachment.filename ?? "", attachment.contentType, state.files.length);
    const temp = await blobs.createTemp();
    state.temps.push(temp);
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        state.total += chunk.length;
        if (state.refusal === undefined && size > LIMITS.fileMaxBytes) state.refusal = fileTooLarge(draft.fileName);
        if (state.refusal === undefined && state.total > LIMITS.multipartMaxBytes)
          state.refusal = attachmentsTooLarge();
        callback(null, state.refusal === undefined ? chunk : undefined);
      },
    });
    await pipeline(attachment.content, counter, temp.stream);
    state.files.push({ draft: { ...draft, size }, temp });
  } catch (error) {
    state.broken ??= error instanceof Error ? error : new Error(String(error));
    attachment.content.resume();
  } finally {
    attachment.release?.();
  }
}

async function drain(content: Readable): Promise<void> {
  for await (const chunk of content) void chunk;
}

/** The addresses of the From header (a group's members counted one by one). */
function fromAddresses(headers: Headers | undefined): string[] {
  const from = headers?.get("from") as AddressObject | undefined;
  const addresses: string[] = [];
  const walk = (entries: AddressObject["value"]) => {
    for (const entry of entries) {
      if (entry.group) walk(entry.group);
      else addresses.push(entry.address ?? "");
    }
  };
  walk(from?.value ?? []);
  return addresses;
}

/** RFC 3834's Auto-Submitted, and the headers older responders set instead. */
function isAutomatic(headers: Headers): boolean {
  const text = (name: string) => {
    const value = headers.get(name);
    return typeof value === "string" ? value.trim().toLowerCase() : undefined;
  };
  const submitted = text("auto-submitted");
  if (submitted !== undefined && submitted !== "no") return true;
  if (headers.has("x-autoreply") || headers.has("x-autorespond")) return true;
  return ["auto_reply", "bulk", "junk", "list"].includes(text("precedence") ?? "");
}

function textTooLarge(): TooLargeError {
  return new TooLargeError("REPLY_TEXT_TOO_LONG", "The reply's text, or its HTML, is too long to be read.");
}
