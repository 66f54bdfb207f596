// Each process's live streams and the one reader that fans the event log out to them.
import { withoutCommentText } from "../../domain/notification.js";
import type { ServiceContext } from "../context.js";
import { type LiveDelivery, LIVE_RESUME_WINDOW_MS, replayLiveEvents, resolveLiveEvent } from "./live.js";
import { type LiveStream, type StreamEndReason, type StreamLimits, StreamSet } from "./live-streams.js";

export type { LiveStream, StreamEndReason, StreamLimits } from "./live-streams.js";

/** How many streams ended for each reason since the process started (the metrics read it). */
export type StreamEndCounts = Record<StreamEndReason, number>;

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
 * The streams this process holds, and the one reader of the event log: woken by the store after a
 * commit (SQLite) or a NOTIFY (PostgreSQL), it reads the new rows once, checks that the streams'
 * credentials still hold, resolves each row's audience among the local users with one query, and
 * hands each stream its events. Timers and the store subscription exist only while a stream is open.
 */
export class LiveHub {
  readonly #streams = new StreamSet();
  readonly #sent = new Set<number>();
  readonly #ended: StreamEndCounts = { "credential-ended": 0, "too-many-streams": 0, lifetime: 0, shutdown: 0 };
  #cursor = 0;
  #started: Promise<void> | undefined;
  #reading: Promise<void> | undefined;
  #again = false;
  #recheck = false;
  /** Streams added so far, and how many of them the last credential check saw. */
  #added = 0;
  #checkedAt = -1;
  #stop: (() => void) | undefined;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly limits: StreamLimits,
  ) {}

  /** Open streams. */
  get streamCount(): number {
    return this.#streams.size;
  }

  /** Streams the server ended, by reason (a copy). */
  get endedCounts(): Readonly<StreamEndCounts> {
    return { ...this.#ended };
  }

  /** True while the hub listens to the store (a stream is open). */
  get listening(): boolean {
    return this.#stop !== undefined;
  }

  /**
   * Adds a stream, first ending the oldest of its user's and its address's streams beyond the
   * caps; with `lastEventId`, first sends it what it missed (within the resume window), holding
   * back live events until then so that nothing comes twice or out of order.
   * Returns the stream's removal, which frees everything it held.
   */
  async open(stream: LiveStream, lastEventId: number | undefined): Promise<() => void> {
    for (const old of this.#streams.overCap(stream.userId, stream.address, this.limits)) {
      this.#end(old, "too-many-streams");
    }
    const held: LiveDelivery[] = [];
    const replaying = lastEventId !== undefined;
    const entry: LiveStream = replaying ? { ...stream, deliver: (delivery) => held.push(delivery) } : stream;
    this.#add(entry);
    await this.#start();
    const remove = () => this.#remove(entry);
    if (!replaying) return remove;
    const replayed = new Set<number>();
    try {
      await replayLiveEvents(this.ctx, stream.userId, { after: lastEventId, upTo: this.#cursor }, (delivery) => {
        replayed.add(delivery.id);
        deliverTo(stream, delivery);
      });
    } catch (error) {
      this.#remove(entry);
      throw error;
    }
    // Ended meanwhile (a newer stream over the cap, a credential that ended): it stays ended.
    if (!this.#streams.has(entry)) return () => undefined;
    // In one turn: nothing can arrive between the held events and the switch.
    for (const delivery of held) if (!replayed.has(delivery.id)) deliverTo(stream, delivery);
    this.#add(stream);
    this.#remove(entry);
    return () => this.#remove(stream);
  }

  /** Ends every stream (shutdown) and stops listening. */
  endAll(): void {
    for (const stream of this.#streams.all()) this.#end(stream, "shutdown");
    this.#halt();
  }

  #add(stream: LiveStream): void {
    this.#added += 1;
    this.#streams.add(stream);
  }

  #end(stream: LiveStream, reason: StreamEndReason): void {
    if (!this.#streams.remove(stream)) return;
    this.#ended[reason] += 1;
    stream.end(reason);
    if (this.#streams.size === 0) this.#halt();
  }

  #remove(stream: LiveStream): void {
    if (this.#streams.remove(stream) && this.#streams.size === 0) this.#halt();
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
      setInterval(() => this.#poll(), POLL_MS),
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
    for (const stream of this.#streams.all()) stream.ping();
  }

  /** The poll also ends, within its period, the streams whose credential ended while no event came. */
  #poll(): void {
    this.#recheck = true;
    this.#wake();
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
    this.#endExpired();
    for (;;) {
      const since = this.ctx.clock.now() - LIVE_RESUME_WINDOW_MS;
      const from = Math.max(0, this.#cursor - REORDER_SLACK);
      const events = await this.ctx.store.read((tx) => tx.liveEvents.after(from, since, PAGE));
      const fresh = events.filter((event) => !this.#sent.has(event.id));
      // Read after the events: an ending committed before an event's commit is seen, so nothing
      // written after a credential ended reaches its streams.
      if (fresh.length > 0 || this.#recheck) await this.#endRevoked();
      for (const event of fresh) {
        // A stream that opened during the check above was not in it: checked before it receives a row.
        if (this.#added !== this.#checkedAt) await this.#endRevoked();
        this.#sent.add(event.id);
        this.#cursor = Math.max(this.#cursor, event.id);
        const users = this.#streams.users();
        if (users.length === 0) continue;
        const addressed = await this.ctx.store.read((tx) => resolveLiveEvent(tx, event, users));
        for (const { userId, delivery } of addressed) {
          for (const stream of [...this.#streams.ofUser(userId)]) deliverTo(stream, delivery);
        }
      }
      for (const id of this.#sent) if (id <= this.#cursor - REORDER_SLACK) this.#sent.delete(id);
      if (events.length < PAGE) return;
    }
  }

  /** Ends the streams whose token was revoked, whose session ended, or whose account was disabled. */
  async #endRevoked(): Promise<void> {
    this.#recheck = false;
    this.#checkedAt = this.#added;
    const streams = this.#streams.all();
    if (streams.length === 0) return;
    const ids = (kind: "token" | "session") =>
      streams.flatMap((stream) => (stream.credential.kind === kind ? [stream.credential.id] : []));
    const now = this.ctx.clock.now();
    const live = await this.ctx.store.read((tx) => tx.liveEvents.liveCredentials(ids("token"), ids("session"), now));
    for (const stream of streams) {
      const { kind, id } = stream.credential;
      const holds = kind === "token" ? live.tokenIds.has(id) : live.sessionIds.has(id);
      if (!holds) this.#end(stream, "credential-ended");
    }
  }

  /** Ends the streams past their lifetime: their clients reconnect with Last-Event-ID. */
  #endExpired(): void {
    const oldest = this.ctx.clock.now() - this.limits.lifetimeMs;
    for (const stream of this.#streams.all()) if (stream.openedAt <= oldest) this.#end(stream, "lifetime");
  }
}

/**
 * Chat messages are comment contents: a stream below the `comments` level never receives them, and
 * its like notifications of comments and chat messages come without their text.
 */
function deliverTo(stream: LiveStream, delivery: LiveDelivery): void {
  if (delivery.kind === "chat" && !stream.readsComments) return;
  if (delivery.kind === "likeNotification" && !stream.readsComments)
    stream.deliver({ ...delivery, notification: withoutCommentText(delivery.notification) });
  else stream.deliver(delivery);
}
