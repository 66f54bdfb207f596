import { UnavailableError } from "../domain/errors.js";

/** Seconds a client is asked to wait before trying again: another process or the restarted one will answer. */
const RETRY_AFTER_SECONDS = 5;

/** One upload being received; `signal` aborts when a shutdown's grace period runs out. */
export interface UploadSlot {
  readonly signal: AbortSignal;
  /** Gives the slot back (receiving is over); safe to call twice. */
  leave(): void;
}

/**
 * Whether the server takes a request now: none once shutdown has begun, and no upload beyond
 * `maxUploads` being received at once (each holds a connection, a file descriptor and disk I/O).
 */
export class Admission {
  #closing = false;
  readonly #uploads = new Set<AbortController>();

  constructor(private readonly maxUploads: number) {}

  /** True once shutdown has begun. */
  get closing(): boolean {
    return this.#closing;
  }

  /** Shutdown has begun: every new request is refused from now on. */
  close(): void {
    this.#closing = true;
  }

  /** @throws UnavailableError SHUTTING_DOWN once shutdown has begun */
  checkOpen(): void {
    if (this.#closing) throw shuttingDown();
  }

  /**
   * Takes an upload slot.
   * @throws UnavailableError SHUTTING_DOWN, TOO_MANY_UPLOADS
   */
  enterUpload(): UploadSlot {
    this.checkOpen();
    if (this.#uploads.size >= this.maxUploads) {
      throw new UnavailableError(
        "TOO_MANY_UPLOADS",
        `The server is receiving ${this.maxUploads} uploads already; try again in a moment.`,
        RETRY_AFTER_SECONDS,
      );
    }
    const controller = new AbortController();
    this.#uploads.add(controller);
    return { signal: controller.signal, leave: () => void this.#uploads.delete(controller) };
  }

  /** Ends every upload still being received: the grace period is over. */
  abortUploads(): void {
    for (const controller of this.#uploads) controller.abort(shuttingDown());
    this.#uploads.clear();
  }
}

function shuttingDown(): UnavailableError {
  return new UnavailableError(
    "SHUTTING_DOWN",
    "The server is shutting down; try again in a moment.",
    RETRY_AFTER_SECONDS,
  );
}
