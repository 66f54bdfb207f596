// Records delivered messages as sent in as few transactions as keep up: while one records, the
// next deliveries gather, then go in one statement. Each waits at most for one transaction, so the
// window in which a killed process has sent a message without recording it stays short (those
// messages are sent again after a restart, with the same Message-ID).
import type { ServiceContext } from "../context.js";

/** What the recorder tells when recording failed (the rows stay claimed and are sent again later). */
export type RecordFailure = (error: unknown, ids: readonly number[]) => void;

export class SentRecorder {
  #ids: number[] = [];
  #draining: Promise<void> | undefined;

  constructor(
    private readonly ctx: Pick<ServiceContext, "store" | "clock">,
    private readonly onFailure: RecordFailure,
  ) {}

  /** Notes `id` as delivered; it is recorded with the next transaction. */
  add(id: number): void {
    this.#ids.push(id);
    this.#draining ??= this.#drain();
  }

  /** Resolves once every delivery noted so far is recorded (or its recording failed). */
  async flush(): Promise<void> {
    while (this.#draining !== undefined) await this.#draining;
  }

  async #drain(): Promise<void> {
    while (this.#ids.length > 0) {
      const ids = this.#ids.splice(0);
      try {
        await this.ctx.store.transaction((tx) => tx.mailOutbox.markSent(ids, this.ctx.clock.now()));
      } catch (error) {
        this.onFailure(error, ids);
      }
    }
    this.#draining = undefined;
  }
}
