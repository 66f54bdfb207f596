// The token of a reply address (`reply+TOKEN@DOMAIN`): the claims of domain/reply.ts packed into
// bytes and signed, written in lower-case base32. It must survive mail systems: the local part
// stays within 64 characters (RFC 5321), uses only letters and digits (nothing to quote), and
// means the same whatever case an MTA gives it. Nothing is stored per token.
import type { ContentKind } from "../domain/kinds.js";
import type { ReplyClaims, ReplyItem } from "../domain/reply.js";
import { hmac, macEquals } from "./signed-token.js";

/** The purpose the MAC is computed for (a token of another purpose never verifies as this one). */
export const REPLY_TOKEN_PURPOSE = "mail-reply";

/** What precedes the token in the local part. */
export const REPLY_PREFIX = "reply+";

/** The local part's limit (RFC 5321 4.5.3.1.1) less the prefix: in bytes, 36; in base32, 58 characters. */
const MAX_TOKEN_BYTES = Math.floor(((64 - REPLY_PREFIX.length) * 5) / 8);
/** The MAC: 96 bits, fewer (never under 64) only when the ids are too large to leave room for them. */
const MAC_BYTES = 12;
const MIN_MAC_BYTES = 8;
/** The high half of the first byte: the format's version. */
const VERSION = 0x10;
const KIND_CODES: Readonly<Record<ContentKind | "CHAT", number>> = {
  BOARD: 1,
  TASK: 2,
  CABINET: 3,
  GW_SCHEDULE: 4,
  CHAT: 5,
};
const HOUR_MS = 3_600_000;
/** A varint of 8 bytes carries 56 bits: every safe integer. */
const MAX_VARINT_BYTES = 8;

/** Why a token was refused: it is not one of ours (or was changed), or it was and has expired. */
export type ReplyTokenRefusal = "invalid" | "expired";

/** Signs `claims` with the site's reply key. `expiresAt` must be a whole hour (domain/reply.ts replyExpiry). */
export function signReplyToken(key: Buffer, claims: ReplyClaims): string {
  if (claims.expiresAt % HOUR_MS !== 0) throw new Error("a reply token expires on a whole hour");
  const payload = Buffer.from([
    VERSION | KIND_CODES[claims.item.kind],
    ...varint(claims.userId),
    ...itemNumbers(claims.item).flatMap(varint),
    ...varint(claims.expiresAt / HOUR_MS),
  ]);
  const mac = hmac(key, REPLY_TOKEN_PURPOSE, payload).subarray(0, macLength(payload.length));
  return base32(Buffer.concat([payload, mac]));
}

/**
 * The claims of a token made by {@link signReplyToken} with `key`, read in any case; a refusal
 * when it is not one (changed, truncated, of another key) or has expired at `now`.
 */
export function verifyReplyToken(key: Buffer, token: string, now: number): ReplyClaims | ReplyTokenRefusal {
  const bytes = token.length <= 64 ? unbase32(token.toLowerCase()) : undefined;
  if (bytes === undefined) return "invalid";
  const read = readPayload(bytes);
  if (read === undefined) return "invalid";
  const payload = bytes.subarray(0, read.length);
  const expected = hmac(key, REPLY_TOKEN_PURPOSE, payload).subarray(0, macLength(payload.length));
  if (!macEquals(bytes.subarray(read.length), expected)) return "invalid";
  return now < read.claims.expiresAt ? read.claims : "expired";
}

function macLength(payloadLength: number): number {
  return Math.max(MIN_MAC_BYTES, Math.min(MAC_BYTES, MAX_TOKEN_BYTES - payloadLength));
}

function itemNumbers(item: ReplyItem): number[] {
  return item.kind === "CHAT" ? [item.roomId] : [item.groupId, item.id];
}

/** The claims and the payload's length, or undefined when the bytes are not a payload of this format. */
function readPayload(bytes: Buffer): { claims: ReplyClaims; length: number } | undefined {
  const head = bytes[0];
  if (head === undefined || (head & 0xf0) !== VERSION) return undefined;
  const kind = (Object.keys(KIND_CODES) as (ContentKind | "CHAT")[]).find((name) => KIND_CODES[name] === (head & 0x0f));
  if (kind === undefined) return undefined;
  const numbers: number[] = [];
  let offset = 1;
  for (let i = 0; i < (kind === "CHAT" ? 3 : 4); i++) {
    const read = readVarint(bytes, offset);
    if (read === undefined) return undefined;
    numbers.push(read.value);
    offset = read.next;
  }
  const [userId = 0, first = 0, second = 0, third = 0] = numbers;
  const item: ReplyItem = kind === "CHAT" ? { kind, roomId: first } : { kind, groupId: first, id: second };
  const hours = kind === "CHAT" ? second : third;
  return { claims: { userId, item, expiresAt: hours * HOUR_MS }, length: offset };
}

/** Unsigned LEB128 of a positive safe integer (arithmetic, not bit operators: ids may pass 2^31). */
function varint(value: number): number[] {
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`not a positive id: ${value}`);
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return bytes;
}

/** One varint at `offset`: positive, minimal (no trailing zero byte), at most 8 bytes; else undefined. */
function readVarint(bytes: Buffer, offset: number): { value: number; next: number } | undefined {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < MAX_VARINT_BYTES; i++) {
    const byte = bytes[offset + i];
    if (byte === undefined) return undefined;
    value += (byte & 0x7f) * scale;
    scale *= 0x80;
    if (byte < 0x80) {
      if (byte === 0 && i > 0) return undefined;
      return value >= 1 && Number.isSafeInteger(value) ? { value, next: offset + i + 1 } : undefined;
    }
  }
  return undefined;
}

const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

/** RFC 4648 base32 in lower case, without padding. */
function base32(bytes: Buffer): string {
  let out = "";
  let bits = 0;
  let buffer = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/** The bytes of lower-case base32 text; undefined for any other character or unused bits that are not zero. */
function unbase32(text: string): Buffer | undefined {
  const bytes: number[] = [];
  let bits = 0;
  let buffer = 0;
  for (const char of text) {
    const value = ALPHABET.indexOf(char);
    if (value < 0) return undefined;
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      bytes.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
    buffer &= (1 << bits) - 1;
  }
  // A canonical encoding leaves fewer than 5 unused bits, all zero: one token, one spelling.
  if (bits >= 5 || buffer !== 0) return undefined;
  return Buffer.from(bytes);
}
