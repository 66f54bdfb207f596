// test-run: serial: it writes at full speed from several clients and kills servers; beside other files it would load the machine they share
// Crash safety: a real `kairan serve` is killed with SIGKILL while clients write at full speed,
// restarted on the same data, killed again...; at the end every write that was answered 200 must be
// there, with the content it was acknowledged with. On SQLite (WAL, synchronous=NORMAL: README) and,
// when KAIRAN_TEST_DATABASE_URL is set, on PostgreSQL (an unreachable server fails the test).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { type Backend, createTestSchema, testBackends } from "../support/backends.js";
import { startServerProcess } from "../support/cli.js";
import { eventually } from "../support/eventually.js";
import { shortOrLong } from "../support/long.js";
import { type Ack, missingAcks, startWriters } from "../support/writers.js";

const ROUNDS = shortOrLong(2, 6);
const WRITERS = shortOrLong(4, 8);
/** Acknowledged writes a round waits for before the kill (the writers are still going when it comes). */
const ACKS_PER_ROUND = shortOrLong(40, 400);
/** The demo workspace (loaded at the first start): group 1:1, both users members, level Z tokens. */
const DEMO = { groupId: "1:1", tokens: ["alice-demo-token", "bob-demo-token"] };

for (const backend of testBackends()) {
  describe(`crash safety [${backend}]`, () => {
    it(`keeps every write answered 200 through ${ROUNDS} SIGKILLs under load`, { timeout: 600_000 }, async (t) => {
      const place = await dataPlace(backend);
      try {
        const args = [
          "--port",
          "0",
          "--data",
          place.dataDir,
          "--log-level",
          "warn",
          "--no-rate-limit",
          ...place.databaseArgs,
        ];
        const acks: Ack[] = [];
        let unanswered = 0;
        for (let round = 0; round < ROUNDS; round++) {
          const server = await startServerProcess(args);
          const load = startWriters(server.url, { ...DEMO, writers: WRITERS });
          await eventually(
            () => load.acks.length >= ACKS_PER_ROUND || load.refusals.length > 0,
            "the writers are writing",
            120_000,
          );
          assert.equal(await server.stop("SIGKILL"), null, "killed, not exited");
          await load.done;
          assert.deepEqual(
            load.refusals.filter((r) => r.status !== "no answer"),
            [],
            "under load, every answer was 200",
          );
          acks.push(...load.acks);
          unanswered += load.refusals.length;
        }
        const server = await startServerProcess(args);
        try {
          const missing = await missingAcks(server.url, acks, DEMO.tokens[0]!);
          t.diagnostic(
            `${backend}: ${acks.length} writes acknowledged, ${acks.length - missing.length} found intact (${unanswered} requests cut off unanswered by the kills)`,
          );
          assert.deepEqual(missing, [], "every acknowledged write is present and intact");
          assert.ok(acks.length >= ROUNDS * ACKS_PER_ROUND);
        } finally {
          await server.stop();
        }
      } finally {
        await place.drop();
      }
    });
  });
}

/** A data directory, and on PostgreSQL a fresh schema (createTestSchema fails loudly when unreachable). */
async function dataPlace(
  backend: Backend,
): Promise<{ dataDir: string; databaseArgs: string[]; drop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), "kairan-crash-"));
  const schema = backend === "postgres" ? await createTestSchema() : undefined;
  return {
    dataDir,
    databaseArgs: schema ? ["--database", schema.url] : [],
    async drop() {
      await schema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
