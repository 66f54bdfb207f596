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
import { SERVER_OPTIONS, SERVER_OPTIONS_HELP, configFlags, parseCommand } from "./options.js";

/** Usage of `kairan serve`. */
export const SERVE_HELP = `Usage: kairan serve [options]

Starts the HTTP server. On first start with an empty database it loads the demo workspace
and prints a curl command that reads the demo board.

${SERVER_OPTIONS_HELP}`;

const DEMO_FILE = new URL("../../seeds/demo.json", import.meta.url);

/** `kairan serve`: runs until SIGTERM or SIGINT, then stops cleanly. */
export async function serve(args: readonly string[]): Promise<void> {
  const { values } = parseCommand(args, SERVER_OPTIONS);
  if (values.help) return void console.log(SERVE_HELP);
  const config = loadConfig(configFlags(values));
  const blobs = await openBlobStore(config.blobStore, config.dataDir);
  const store = await openStore(config.store);
  await store.migrate();
  const demoLoaded = config.demo && (await store.isEmpty()) ? await loadDemo(store, blobs) : false;
  const app = buildApp({ config, store, blobs, clock: systemClock });
  // Handlers first: a signal that arrives right after the "listening" line still stops cleanly.
  stopOnSignals(async () => {
    await app.close();
    await store.close();
    await blobs.close();
  });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  if (demoLoaded) printDemoHelp(config, `http://${config.host}:${port}`);
  // Last, so that whoever waits for this line has everything else already.
  console.log(`listening on http://${config.host}:${port}`);
}

async function loadDemo(store: Store, blobs: BlobStore): Promise<boolean> {
  const seed = validateSeed(JSON.parse(await readFile(DEMO_FILE, "utf8")));
  await loadSeed(store, seed, systemClock, blobs);
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

/** Finishes in-flight requests, closes the store, exits 0; a second signal exits at once. */
function stopOnSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    console.error(`${signal}: finishing in-flight requests, then stopping`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
