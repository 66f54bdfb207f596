// Each process's live streams and the one reader that fans the event log out to them.
import type { ServiceContext } from "../context.js";
import { type LiveDelivery, LIVE_RESUME_WINDOW_MS, resolveLiveEvent } from "./live.js";

/** One open stream, as the hub sees it. */
export interface LiveStream {
  readonly userId: number;
  deliver(delivery: LiveDelivery): void;
  /** A keep-alive comment line. */
  ping(): void;
  /** The process is shutting down: end the stream (the client reconnects elsewhere). */
  end(): void;
}

/** Log rows read per query while catching up. */
const PAGE = 500;
/**
 * Rows below the cursor read again on every wake: on PostgreSQL a transaction may commit after one
 * that took a higher id; re-reading the last few (and skipping those already sent) catches it.
 */
const REORDER_SLACK = 64;
/** A comment line every 25 s keeps proxies and load balancers from cutting an idle stream. */
const PING_MS = 25_000;
/** Reads the log this often even without a wake: writes of other programs, NOTIFYs lost in a reconnection. */
const POLL_MS = 5_000;
/** Old rows are deleted this often, a little after they leave the resume window. */
const PRUNE_MS = 10 * 60_000;
const PRUNE_AFTER_MS = LIVE_RESUME_WINDOW_MS + 5 * 60_000;

/**
 * The streams this process holds, by user, and the one reader of the event log: woken by the
 * store after a commit (SQLite) or a NOTIFY (PostgreSQL), it reads the new rows once, resolves each
 * row's audience among the local users with one query, and hands each stream its events. Timers
 * and the store subscription exist only while a stream is open.
 */
export class LiveHub {
  readonly #streams = new Map<number, Set<LiveStream>>();
  readonly #sent = new Set<number>();
  #cursor = 0;
  #started: Promise<void> | undefined;
  #reading: Promise<void> | undefined;
  #again = false;
  #stop: (() => void) | undefined;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly baseUrl: () => string,
  ) {}

  /** Open streams. */
  get streamCount(): number {
    let count = 0;
    for (const set of this.#streams.values()) count += set.size;
    return count;
  }

  /** True while the hub listens to the store (a stream is open). */
  get listening(): boolean {
    return this.#stop !== undefined;
  }

  /**
   * Adds a stream; with `lastEventId`, first sends it what it missed (within the resume window),
   * holding back live events until then so that nothing comes twice or out of order.
   * Returns the stream's removal, which frees everything it held.
   */
  async open(stream: LiveStream, lastEventId: number | undefined): Promise<() => void> {
    const held: LiveDelivery[] = [];
    const replaying = lastEventId !== undefined;
    const entry: LiveStream = replaying ? { ...stream, deliver: (delivery) => held.push(delivery) } : stream;
    this.#add(entry);
    await this.#start();
    const remove = () => this.#remove(entry);
    if (!replaying) return remove;
    const replayed = new Set<number>();
    try {
      await this.#replay(stream, lastEventId, this.#cursor, replayed);
    } catch (error) {
      this.#remove(entry);
      throw error;
    }
    // In one turn: nothing can arrive between the held events and the switch.
    for (const delivery of held) if (!replayed.has(delivery.id)) stream.deliver(delivery);
    this.#add(stream);
    this.#remove(entry);
    return () => this.#remove(stream);
  }

  /** Ends every stream (shutdown) and stops listening. */
  endAll(): void {
    for (const set of [...this.#streams.values()]) for (const stream of [...set]) stream.end();
    this.#streams.clear();
    this.#halt();
  }

  #add(stream: LiveStream): void {
    const set = this.#streams.get(stream.userId) ?? new Set<LiveStream>();
    set.add(stream);
    this.#streams.set(stream.userId, set);
  }

  #remove(stream: LiveStream): void {
    const set = this.#streams.get(stream.userId);
    if (!set?.delete(stream)) return;
    if (set.size === 0) this.#streams.delete(stream.userId);
    if (this.#streams.size === 0) this.#halt();
  }

  #start(): Promise<void> {
    this.#started ??= this.#begin();
    return this.#started;
  }

  async #begin(): Promise<void> {
    // The cursor first: a wake before it is known would send the whole retained log.
    this.#cursor = await this.ctx.store.read((tx) => tx.liveEvents.latestId());
    const unsubscribe = this.ctx.store.onLiveEvents(() => this.#wake());
    const timers = [
      setInterval(() => this.#pingAll(), PING_MS),
      setInterval(() => this.#wake(), POLL_MS),
      setInterval(() => void this.#prune(), PRUNE_MS),
    ];
    for (const timer of timers) timer.unref();
    this.#stop = () => {
      unsubscribe();
      for (const timer of timers) clearInterval(timer);
    };
    this.#wake();
  }

  #halt(): void {
    this.#stop?.();
    this.#stop = undefined;
    this.#started = undefined;
    this.#sent.clear();
  }

  #pingAll(): void {
    for (const set of this.#streams.values()) for (const stream of set) stream.ping();
  }

  async #prune(): Promise<void> {
    const before = this.ctx.clock.now() - PRUNE_AFTER_MS;
    await this.ctx.store.transaction((tx) => tx.liveEvents.prune(before)).catch(() => undefined);
  }

  /** Reads the new rows; wakes during a read make one more read after it. */
  #wake(): void {
    if (this.#stop === undefined) return;
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = this.#readNew()
      .catch(() => undefined)
      .finally(() => {
        this.#reading = undefined;
        if (this.#again) {
          this.#again = false;
          this.#wake();
        }
      });
  }

  async #readNew(): Promise<void> {
    for (;;) {
      const since = this.ctx.clock.now() - LIVE_RESUME_WINDOW_MS;
      const from = Math.max(0, this.#cursor - REORDER_SLACK);
      const events = await this.ctx.store.read((tx) => tx.liveEvents.after(from, since, PAGE));
      const fresh = events.filter((event) => !this.#sent.has(event.id));
      for (const event of fresh) {
        this.#sent.add(event.id);
        this.#cursor = Math.max(this.#cursor, event.id);
        const users = [...this.#streams.keys()];
        if (users.length === 0) continue;
        const addressed = await this.ctx.store.read((tx) => resolveLiveEvent(tx, this.baseUrl(), event, users));
        for (const { userId, delivery } of addressed) {
          for (const stream of this.#streams.get(userId) ?? []) stream.deliver(delivery);
        }
      }
      for (const id of this.#sent) if (id <= this.#cursor - REORDER_SLACK) this.#sent.delete(id);
      if (events.length < PAGE) return;
    }
  }

  async #replay(stream: LiveStream, afterId: number, upTo: number, replayed: Set<number>): Promise<void> {
    let from = afterId;
    while (from < upTo) {
      const since = this.ctx.clock.now() - LIVE_RESUME_WINDOW_MS;
      const events = (await this.ctx.store.read((tx) => tx.liveEvents.after(from, since, PAGE))).filter(
        (event) => event.id <= upTo,
      );
      for (const event of events) {
        const addressed = await this.ctx.store.read((tx) =>
          resolveLiveEvent(tx, this.baseUrl(), event, [stream.userId]),
        );
        for (const { delivery } of addressed) {
          replayed.add(delivery.id);
          stream.deliver(delivery);
        }
      }
      if (events.length < PAGE) return;
      from = events[events.length - 1]?.id ?? upTo;
    }
  }
}
