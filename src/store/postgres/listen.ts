// One LISTEN connection per process for the live event log's announcements (queries/live-events.ts).
import pg from "pg";
import { LIVE_CHANNEL } from "../queries/live-events.js";
import { withSchemaOption } from "./url.js";

/** Waits between reconnection attempts after the listening connection is lost. */
const RECONNECT_MS = 1000;

/**
 * Listeners of the live channel over one dedicated connection (a pooled connection cannot hold
 * LISTEN: it goes back to the pool). Opened with the first listener, closed with the last; when
 * the connection drops it reconnects, and wakes every listener once it is back, since NOTIFYs sent
 * meanwhile are lost (the readers catch up from the log by id).
 */
export class LiveListener {
  readonly #listeners = new Set<() => void>();
  #client: pg.Client | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(private readonly url: string) {}

  /** Adds a listener; returns its removal. */
  subscribe(onWake: () => void): () => void {
    this.#listeners.add(onWake);
    if (this.#listeners.size === 1) this.#connect();
    return () => {
      this.#listeners.delete(onWake);
      if (this.#listeners.size === 0) this.#disconnect();
    };
  }

  /** Ends the connection for good (the store is closing). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    this.#disconnect();
  }

  #wakeAll(): void {
    for (const listener of this.#listeners) listener();
  }

  #connect(): void {
    if (this.#closed || this.#client !== undefined) return;
    const client = new pg.Client({ connectionString: withSchemaOption(this.url) });
    this.#client = client;
    const lost = () => {
      if (this.#client !== client) return;
      this.#client = undefined;
      void client.end().catch(() => undefined);
      if (this.#listeners.size > 0 && !this.#closed) this.#timer = setTimeout(() => this.#connect(), RECONNECT_MS);
    };
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", () => this.#wakeAll());
    client
      .connect()
      .then(() => client.query(`LISTEN ${LIVE_CHANNEL}`))
      .then(() => this.#wakeAll())
      .catch(lost);
  }

  #disconnect(): void {
    clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = undefined;
    void client?.end().catch(() => undefined);
  }
}
