// The live streams' figures for GET /metrics (metrics.ts): how many are open, and how many the
// server ended, by reason (the caps, an ended credential, the lifetime, a shutdown).
import type * as PromClient from "prom-client";
import type { StreamEndCounts } from "../services/live/live-hub.js";

/** What the stream metrics read from the process's hub at scrape time. */
export interface StreamTally {
  readonly streamCount: number;
  readonly endedCounts: Readonly<StreamEndCounts>;
}

/** Registers `kairan_stream_open` and `kairan_stream_ended_total{reason}`. */
export function registerStreamMetrics(
  prom: typeof PromClient,
  registry: PromClient.Registry,
  streams: () => StreamTally | undefined,
): void {
  new prom.Gauge({
    name: "kairan_stream_open",
    help: "Live streams (GET /api/stream/V2) this process holds open.",
    registers: [registry],
    collect() {
      this.set(streams()?.streamCount ?? 0);
    },
  });
  const reported = new Map<string, number>();
  new prom.Counter({
    name: "kairan_stream_ended_total",
    help: "Live streams the server ended, by reason: too-many-streams (a cap), credential-ended, lifetime, shutdown.",
    labelNames: ["reason"] as const,
    registers: [registry],
    collect() {
      const counts = streams()?.endedCounts;
      if (counts === undefined) return;
      for (const [reason, now] of Object.entries(counts)) {
        this.inc({ reason }, now - (reported.get(reason) ?? 0));
        reported.set(reason, now);
      }
    },
  });
}
