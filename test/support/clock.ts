import type { Clock } from "../../src/clock.js";

/** A clock that only moves when a test says so: the one faked part of the test server. */
export class TestClock implements Clock {
  constructor(private current = Date.parse("2026-04-01T09:00:00Z")) {}

  now(): number {
    return this.current;
  }

  /** Moves time forward by `ms`. */
  advance(ms: number): void {
    this.current += ms;
  }
}
