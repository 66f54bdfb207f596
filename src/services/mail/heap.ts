// Why this exists: delivering thousands of messages keeps each one's objects alive across a few
// young-generation collections (the SMTP exchange, the claimed batch). V8's allocation-site
// pretenuring reads that as "these sites make long-lived objects" and from then on allocates them
// straight in the old generation, where every message's garbage then piles up until a full
// collection: a server delivering 5,000 messages peaked at 270-300 MB of RSS, against 175-185 MB
// with pretenuring off (bench/mail.ts; the outcome flips between runs, as V8's decision does).
// The flag must be set before the process runs much code: set later (at the first delivery), it
// no longer prevented the decision in 3 runs of 4.
import { setFlagsFromString } from "node:v8";

let done = false;

/**
 * Turns V8's allocation-site pretenuring off for this process, once: `kairan serve` calls it first
 * thing (every server process may deliver mail). Objects that do live long are still moved to
 * the old generation by the young collections; only the guess at allocation time is gone.
 */
export function keepDeliveryGarbageYoung(): void {
  if (done) return;
  done = true;
  setFlagsFromString("--no-allocation-site-pretenuring");
}
