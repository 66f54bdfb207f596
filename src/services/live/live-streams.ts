// The streams one process holds, by user (whom an event reaches) and by client address (the caps),
// and the bounds a stream lives within.
import type { LiveDelivery } from "./live.js";

/** Why the server ended a stream: its final `event: end` says so (docs/api.md "Live updates"). */
export type StreamEndReason = "credential-ended" | "too-many-streams" | "lifetime" | "shutdown";

/** The credential a stream was opened with: ending that credential ends exactly its streams. */
export type StreamCredential =
  { readonly kind: "token"; readonly id: number } | { readonly kind: "session"; readonly id: number };

/** One open stream, as the hub sees it. */
export interface LiveStream {
  readonly userId: number;
  readonly credential: StreamCredential;
  /** The client's address (after --trust-proxy), for the per-address cap. */
  readonly address: string;
  /** The clock's time when it opened, for its lifetime. */
  readonly openedAt: number;
  /** Opening order in this process: of a user's (or an address's) streams, the lowest is the oldest. */
  readonly serial: number;
  /** Chat messages are comment contents: false below the `comments` access level. */
  readonly readsComments: boolean;
  deliver(delivery: LiveDelivery): void;
  /** A keep-alive comment line. */
  ping(): void;
  /** The server ends the stream: a final event names the reason, then the answer ends. */
  end(reason: StreamEndReason): void;
}

/** How many streams may be open at once, and for how long (docs/operations.md "Limits"). */
export interface StreamLimits {
  readonly perUser: number;
  readonly perAddress: number;
  readonly lifetimeMs: number;
}

/** The streams of one process, indexed twice. */
export class StreamSet {
  readonly #byUser = new Map<number, Set<LiveStream>>();
  readonly #byAddress = new Map<string, Set<LiveStream>>();

  /** Open streams. */
  get size(): number {
    let count = 0;
    for (const set of this.#byUser.values()) count += set.size;
    return count;
  }

  /** The users that hold a stream. */
  users(): number[] {
    return [...this.#byUser.keys()];
  }

  /** One user's streams. */
  ofUser(userId: number): Iterable<LiveStream> {
    return this.#byUser.get(userId) ?? [];
  }

  /** Every stream (a copy: ending streams while iterating is safe). */
  all(): LiveStream[] {
    return [...this.#byUser.values()].flatMap((set) => [...set]);
  }

  has(stream: LiveStream): boolean {
    return this.#byUser.get(stream.userId)?.has(stream) ?? false;
  }

  add(stream: LiveStream): void {
    addTo(this.#byUser, stream.userId, stream);
    addTo(this.#byAddress, stream.address, stream);
  }

  /** False when it was not there. */
  remove(stream: LiveStream): boolean {
    const removed = removeFrom(this.#byUser, stream.userId, stream);
    removeFrom(this.#byAddress, stream.address, stream);
    return removed;
  }

  /**
   * The streams to end so that one more of this user from this address stays within the caps:
   * the oldest first, of the user and then of the address.
   */
  overCap(userId: number, address: string, limits: StreamLimits): LiveStream[] {
    const out = oldest(this.#byUser.get(userId), limits.perUser);
    const skip = new Set(out);
    const ofAddress = [...(this.#byAddress.get(address) ?? [])].filter((stream) => !skip.has(stream));
    return [...out, ...oldest(new Set(ofAddress), limits.perAddress)];
  }
}

/** The oldest streams of `set` beyond `cap - 1` (room for one more). */
function oldest(set: ReadonlySet<LiveStream> | undefined, cap: number): LiveStream[] {
  if (set === undefined || set.size < cap) return [];
  const sorted = [...set].sort((a, b) => a.serial - b.serial);
  return sorted.slice(0, set.size - cap + 1);
}

function addTo<K>(map: Map<K, Set<LiveStream>>, key: K, stream: LiveStream): void {
  const set = map.get(key) ?? new Set<LiveStream>();
  set.add(stream);
  map.set(key, set);
}

function removeFrom<K>(map: Map<K, Set<LiveStream>>, key: K, stream: LiveStream): boolean {
  const set = map.get(key);
  if (!set?.delete(stream)) return false;
  if (set.size === 0) map.delete(key);
  return true;
}
