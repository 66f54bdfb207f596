import { readFile } from "node:fs/promises";
import { buildApp } from "../app.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { openBlobStore } from "../blobs/open.js";
import { systemClock } from "../clock.js";
import { type Config, loadConfig } from "../config/config.js";
import { loadSeed } from "../seed/load.js";
import { validateSeed } from "../seed/validate.js";
import { openStore } from "../store/open.js";
import type { Store } from "../store/store.js";
import {
  ACCOUNT_OPTIONS,
  ACCOUNT_OPTIONS_HELP,
  LIMIT_OPTIONS,
  LIMIT_OPTIONS_HELP,
  SERVER_OPTIONS,
  SERVER_OPTIONS_HELP,
  CommandError,
  UsageError,
  configFlags,
  parseCommand,
} from "./options.js";
import { checkDataDir, checkListen, listenProblem } from "./preflight.js";

/** Usage of `kairan serve`. */
export const SERVE_HELP = `Usage: kairan serve [options]

Starts the HTTP server. On first start with an empty database it loads the demo workspace
and prints a curl command that reads the demo board.

${SERVER_OPTIONS_HELP}

${LIMIT_OPTIONS_HELP}

${ACCOUNT_OPTIONS_HELP}`;

const DEMO_FILE = new URL("../../seeds/demo.json", import.meta.url);

/** `kairan serve`: runs until SIGTERM or SIGINT, then stops cleanly. */
export async function serve(args: readonly string[]): Promise<void> {
  const { values, positionals } = parseCommand(args, { ...SERVER_OPTIONS, ...LIMIT_OPTIONS, ...ACCOUNT_OPTIONS });
  if (values.help) return void console.log(SERVE_HELP);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]?.slice(0, 40)}"`);
  const config = loadConfig(configFlags(values));
  // Everything that can be checked without writing is checked first (preflight.ts): a start that
  // cannot succeed leaves no data directory, database, migration or demo data behind.
  checkDataDir(config);
  await checkListen(config.host, config.port);
  const { store, blobs, demoLoaded } = await prepare(config);
  const app = buildApp({ config, store, blobs, clock: systemClock });
  const close = async () => {
    await app.close();
    await store.close();
    await blobs.close();
  };
  // Handlers first: a signal that arrives right after the "listening" line still stops cleanly.
  stopOnSignals(config.limits.timeouts.shutdownGraceMs, blobs, close);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // Another process took the port since checkListen: the same one line.
    await close();
    blobs.removeTemp();
    throw new CommandError(listenProblem(error, config.host, config.port), { cause: error });
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  if (demoLoaded) printDemoHelp(config, `http://${config.host}:${port}`);
  // Last, so that whoever waits for this line has everything else already.
  console.log(`listening on http://${config.host}:${port}`);
}

/** Opens and migrates the store, sweeps old temporary files, loads the demo into an empty database. */
async function prepare(config: Config): Promise<{ store: Store; blobs: BlobStore; demoLoaded: boolean }> {
  const blobs = await openBlobStore(config.blobStore, config.dataDir);
  let store: Store | undefined;
  try {
    // The server runs for long: checkpoints from a thread of their own (store/sqlite/checkpointer.ts).
    store = await openStore(config.store, { backgroundCheckpoints: true });
    await store.migrate();
    await sweepTemporaryFiles(blobs);
    const demoLoaded = config.demo && (await store.isEmpty()) ? await loadDemo(store, blobs) : false;
    return { store, blobs, demoLoaded };
  } catch (error) {
    await store?.close();
    await blobs.close();
    blobs.removeTemp();
    throw error;
  }
}

async function loadDemo(store: Store, blobs: BlobStore): Promise<boolean> {
  const seed = validateSeed(JSON.parse(await readFile(DEMO_FILE, "utf8")));
  await loadSeed({ store, blobs, clock: systemClock }, seed);
  return true;
}

function printDemoHelp(config: Config, listening: string): void {
  const base = config.publicUrl ?? listening;
  console.log(`
Loaded the demo workspace: users alice@example.com and bob@example.com, password "kairan-demo".
Read the demo group's board:

  curl -H 'Authorization: Bearer alice-demo-token' '${base}/api/board/V2?group=1:1'
`);
}

/** Temporary files of crashed processes go at start, and again every minute while serving (temp-area.ts). */
async function sweepTemporaryFiles(blobs: BlobStore): Promise<void> {
  const removed = await blobs.sweepTemp();
  if (removed > 0) console.error(`removed ${removed} temporary upload(s) left by a stopped process`);
  setInterval(() => void blobs.sweepTemp().catch((error: unknown) => console.error(error)), SWEEP_EVERY_MS).unref();
}

const SWEEP_EVERY_MS = 60_000;

/** Beyond the grace period, what closing the store and the last answers may take before exit is forced. */
const EXIT_MARGIN_MS = 4000;

/**
 * Finishes in-flight requests (refusing new ones with 503, guards.ts), closes the store, removes
 * this process's temporary files and exits 0. It exits within the grace period plus EXIT_MARGIN_MS
 * whatever happens (status 1 when forced); a second signal exits at once.
 */
function stopOnSignals(graceMs: number, blobs: BlobStore, stop: () => Promise<void>): void {
  let stopping = false;
  const exit = (code: number) => {
    blobs.removeTemp();
    process.exit(code);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) exit(1);
    stopping = true;
    console.error(`${signal}: finishing in-flight requests (at most ${graceMs / 1000} s), then stopping`);
    setTimeout(() => {
      console.error("requests still running after the grace period: exiting anyway");
      exit(1);
    }, graceMs + EXIT_MARGIN_MS).unref();
    stop().then(
      () => exit(0),
      (error: unknown) => {
        console.error(error);
        exit(1);
      },
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
