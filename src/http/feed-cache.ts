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

/** An entry as the cache holds it. */
interface Slot {
  readonly feed: CachedFeed;
  /** Read since the eviction hand last passed it. */
  used: boolean;
}

/**
 * Built feeds by key, bounded by their bytes (identity and compressed variants), the least
 * recently used going first, approximately: "second chance" (CLOCK). Entries stay in insertion
 * order; a read only marks its entry, and eviction takes the oldest one, unless it was read since
 * it last came round, in which case it goes to the back once more. Moving an entry to the back
 * of the Map on every read (exact LRU) left garbage the young generation could not collect: the
 * server's memory grew about 1 MB a second at 7,000 hits a second until a full collection.
 * A feed larger than an eighth of the capacity is not kept: one huge answer would push out
 * hundreds of small ones.
 */
export class FeedCache {
  private readonly entries = new Map<string, Slot>();
  private used = 0;
  /** Targets (caller and URL, without the version) asked for lately, oldest first. */
  private readonly seen = new Set<string>();
  private readonly seenLimit: number;
  /** Lookups that found an entry, and that did not, since the start (the metrics read them). */
  hits = 0;
  misses = 0;

  constructor(readonly capacityBytes: number) {
    this.seenLimit = Math.max(1024, Math.floor(capacityBytes / 1024));
  }

  /**
   * Whether a feed built for this target is worth keeping: only when the target was asked for
   * before (a poll repeats its URL; a one-off request does not). Keeping every built feed made a
   * stream of distinct requests replace entries as fast as they came, and the replaced bytes
   * waited for a full collection: about 60 MB more memory at 2,000 new URLs a second, measured.
   * It also keeps one-off requests from pushing out the feeds that pollers come back for.
   */
  admits(target: string): boolean {
    if (this.seen.has(target)) return true;
    this.seen.add(target);
    if (this.seen.size > this.seenLimit) {
      const oldest = this.seen.values().next();
      if (oldest.done !== true) this.seen.delete(oldest.value);
    }
    return false;
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.used;
  }

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }

  /** The entry, marked as read. */
  get(key: string): CachedFeed | undefined {
    const slot = this.entries.get(key);
    if (slot === undefined) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    slot.used = true;
    return slot.feed;
  }

  /** Keeps a built feed (replacing one of the same key); undefined when it is too large to keep. */
  set(key: string, body: Buffer, etag: string): CachedFeed | undefined {
    const cost = costOf(key, body.length);
    if (cost > this.capacityBytes / 8) return undefined;
    this.remove(key);
    // Room first: the newcomer is never the one pushed out by its own arrival.
    this.evict(this.capacityBytes - cost);
    const feed: CachedFeed = { body, etag, variants: new Map() };
    this.entries.set(key, { feed, used: false });
    this.used += cost;
    return feed;
  }

  /** The entry's bytes in this coding, compressed once and kept with it. */
  variant(key: string, entry: CachedFeed, encoding: Encoding): Buffer {
    const known = entry.variants.get(encoding);
    if (known !== undefined) return known;
    const bytes = compress(entry.body, encoding);
    // The entry may have been pushed out meanwhile; then the bytes serve this answer only.
    if (this.entries.get(key)?.feed === entry) {
      entry.variants.set(encoding, bytes);
      this.used += bytes.length;
      this.evict(this.capacityBytes);
    }
    return bytes;
  }

  private remove(key: string): void {
    const slot = this.entries.get(key);
    if (slot === undefined) return;
    this.entries.delete(key);
    const { body, variants } = slot.feed;
    this.used -= costOf(key, body.length) + [...variants.values()].reduce((sum, bytes) => sum + bytes.length, 0);
  }

  /** Pushes entries out until at most `limit` bytes are held. */
  private evict(limit: number): void {
    while (this.used > limit) {
      const oldest = this.entries.entries().next();
      if (oldest.done === true) return;
      const [key, slot] = oldest.value;
      if (slot.used) {
        // A second chance: to the back, unmarked.
        slot.used = false;
        this.entries.delete(key);
        this.entries.set(key, slot);
      } else {
        this.remove(key);
      }
    }
  }
}

function costOf(key: string, bodyBytes: number): number {
  return bodyBytes + key.length * 2 + ENTRY_OVERHEAD_BYTES;
}

/** The same settings as @fastify/compress: brotli quality 4 (11 costs far more CPU), gzip's default level. */
function compress(body: Buffer, encoding: Encoding): Buffer {
  return encoding === "br"
    ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })
    : gzipSync(body);
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
