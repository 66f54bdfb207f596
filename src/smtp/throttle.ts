// The listener's counters, kept in this process's memory (as the HTTP rate limits are): replies per
// person per hour, connections per client address, and the slots messages are parsed in.
import type { Clock } from "../clock.js";

const HOUR_MS = 3_600_000;
/** Past this many people counted, a take first forgets everyone whose hour has passed. */
const SWEEP_AT = 10_000;

/** At most `limit` takes per key in any hour (a sliding window of the clock the server runs on). */
export class HourlyLimit {
  private readonly takes = new Map<number, number[]>();

  constructor(
    private readonly limit: number,
    private readonly clock: Clock,
  ) {}

  /** Counts one take for `key`; false (and nothing counted) when it already had `limit` this hour. */
  take(key: number): boolean {
    const now = this.clock.now();
    if (this.takes.size > SWEEP_AT) this.sweep(now);
    const recent = (this.takes.get(key) ?? []).filter((at) => at > now - HOUR_MS);
    if (recent.length >= this.limit) {
      this.takes.set(key, recent);
      return false;
    }
    this.takes.set(key, [...recent, now]);
    return true;
  }

  private sweep(now: number): void {
    for (const [key, stamps] of this.takes) if (!stamps.some((at) => at > now - HOUR_MS)) this.takes.delete(key);
  }
}

/** Open connections by client address, each capped. */
export class ConnectionCount {
  private readonly open = new Map<string, number>();

  constructor(private readonly perAddress: number) {}

  /** Counts a new connection from `address`; false (not counted) when that address has its most. */
  enter(address: string): boolean {
    const count = this.open.get(address) ?? 0;
    if (count >= this.perAddress) return false;
    this.open.set(address, count + 1);
    return true;
  }

  /** A counted connection from `address` has closed. */
  leave(address: string): void {
    const count = (this.open.get(address) ?? 0) - 1;
    if (count > 0) this.open.set(address, count);
    else this.open.delete(address);
  }
}

/** At most `size` holders at once; the others wait their turn, first come first served. */
export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  /** Resolves once a slot is held; call the function it gives back exactly once to free it. */
  async enter(): Promise<() => void> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    };
  }
}
