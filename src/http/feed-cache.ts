import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** The content codings feeds are offered in, the server's preference first (as @fastify/compress). */
export type Encoding = "br" | "gzip";
const ENCODINGS: readonly Encoding[] = ["br", "gzip"];

/** Below about 1 KB compression saves less than its headers and CPU cost (small error documents). */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/** One built feed: the identity bytes, their strong tag, and the compressed variants asked for so far. */
export interface CachedFeed {
  readonly body: Buffer;
  /** `"<hash>"` of the identity bytes. */
  readonly etag: string;
  readonly variants: Map<Encoding, Buffer>;
}

// What an entry costs besides its bytes: the key string, the Map slot, the objects.
const ENTRY_OVERHEAD_BYTES = 256;

/**
 * Built feeds by key, least recently used first out, bounded by their bytes (identity and
 * compressed variants). A feed larger than an eighth of the capacity is not kept: one huge
 * answer would push out hundreds of small ones.
 */
export class FeedCache {
  private readonly entries = new Map<string, CachedFeed>();
  private used = 0;

  constructor(readonly capacityBytes: number) {}

  /** Bytes held now. */
  get bytes(): number {
    return this.used;
  }

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }

  /** The entry, now the most recently used. */
  get(key: string): CachedFeed | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Keeps a built feed (replacing one of the same key); undefined when it is too large to keep. */
  set(key: string, body: Buffer, etag: string): CachedFeed | undefined {
    const cost = costOf(key, body.length);
    if (cost > this.capacityBytes / 8) return undefined;
    this.remove(key);
    const entry: CachedFeed = { body, etag, variants: new Map() };
    this.entries.set(key, entry);
    this.used += cost;
    this.evict();
    return this.entries.get(key);
  }

  /** The entry's bytes in this coding, compressed once and kept with it. */
  variant(key: string, entry: CachedFeed, encoding: Encoding): Buffer {
    const known = entry.variants.get(encoding);
    if (known !== undefined) return known;
    const bytes = compress(entry.body, encoding);
    // The entry may have been pushed out meanwhile; then the bytes serve this answer only.
    if (this.entries.get(key) === entry) {
      entry.variants.set(encoding, bytes);
      this.used += bytes.length;
      this.evict();
    }
    return bytes;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.used -= costOf(key, entry.body.length) + [...entry.variants.values()].reduce((sum, bytes) => sum + bytes.length, 0);
  }

  private evict(): void {
    for (const key of this.entries.keys()) {
      if (this.used <= this.capacityBytes) return;
      this.remove(key);
    }
  }
}

function costOf(key: string, bodyBytes: number): number {
  return bodyBytes + key.length * 2 + ENTRY_OVERHEAD_BYTES;
}

/** The same settings as @fastify/compress: brotli quality 4 (11 costs far more CPU), gzip's default level. */
function compress(body: Buffer, encoding: Encoding): Buffer {
  return encoding === "br" ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }) : gzipSync(body);
}

/**
 * The coding to answer in (RFC 9110 §12.5.3): the highest `q` among br and gzip (`x-gzip` is
 * gzip, `*` any), br on a tie; undefined without the header or when neither is acceptable.
 */
export function negotiateEncoding(header: string | undefined): Encoding | undefined {
  if (header === undefined) return undefined;
  const quality = new Map<string, number>();
  for (const part of header.toLowerCase().split(",")) {
    const [name = "", ...parameters] = part.split(";").map((piece) => piece.trim());
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    const value = q === undefined ? 1 : Number(q.slice(2));
    quality.set(name === "x-gzip" ? "gzip" : name, Number.isFinite(value) ? value : 0);
  }
  let best: Encoding | undefined;
  let bestQuality = 0;
  for (const encoding of ENCODINGS) {
    const q = quality.get(encoding) ?? quality.get("*") ?? 0;
    if (q > bestQuality) {
      best = encoding;
      bestQuality = q;
    }
  }
  return best;
}
