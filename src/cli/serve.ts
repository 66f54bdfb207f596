import { readFile } from "node:fs/promises";
import { format } from "node:util";
import { buildApp } from "../app.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { openBlobStore } from "../blobs/open.js";
import { systemClock } from "../clock.js";
import { type Config, loadConfig } from "../config/config.js";
import { loadSeed } from "../seed/load.js";
import { type FirstRunLink, beginFirstRun } from "../services/account/first-run.js";
import { demoShiftDays, shiftSeedDates } from "../seed/demo-dates.js";
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
import type { CliProcess, CommandIo } from "./io.js";
import { checkDataDir, checkInboundListen, checkListen, listenProblem } from "./preflight.js";
import { keepDeliveryGarbageYoung } from "../services/mail/heap.js";

/** Usage of `kairan serve`. */
export const SERVE_HELP = `Usage: kairan serve [options]

Starts the HTTP server. On first start with an empty database it loads the demo workspace
and prints a curl command that reads the demo board. With --no-demo, while the database has
no account, it prints a one-time setup link ("setup: URL") that creates the first administrator.

${SERVER_OPTIONS_HELP}

${LIMIT_OPTIONS_HELP}

${ACCOUNT_OPTIONS_HELP}`;

const DEMO_FILE = new URL("../../seeds/demo.json", import.meta.url);

/** `kairan serve`: runs until SIGTERM or SIGINT (of `io.process`), then stops cleanly. */
export async function serve(args: readonly string[], io: CommandIo): Promise<void> {
  // Before the server runs its code: see services/mail/heap.ts.
  keepDeliveryGarbageYoung();
  const { values, positionals } = parseCommand(args, { ...SERVER_OPTIONS, ...LIMIT_OPTIONS, ...ACCOUNT_OPTIONS });
  if (values.help) return io.out(SERVE_HELP);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]?.slice(0, 40)}"`);
  const config = loadConfig(configFlags(values), io.env);
  // Everything that can be checked without writing is checked first (preflight.ts): a start that
  // cannot succeed leaves no data directory, database, migration or demo data behind.
  checkDataDir(config);
  await checkListen(config.host, config.port);
  await checkInboundListen(config);
  const { store, blobs, demoLoaded, setup } = await prepare(config, io);
  const app = buildApp({ config, store, blobs, clock: systemClock });
  const sweeper = sweepEveryMinute(blobs, io);
  const close = async () => {
    clearInterval(sweeper);
    await app.close();
    await store.close();
    await blobs.close();
  };
  // Handlers first: a signal that arrives right after the "listening" line still stops cleanly.
  if (io.process) stopOnSignals(io, io.process, config.limits.timeouts.shutdownGraceMs, blobs, close);
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
  await listenInbound(app, config, io, async () => {
    await close();
    blobs.removeTemp();
  });
  // Notification mail's passes run in the serving process, beside the outbox's sender.
  app.notificationMailer.start();
  // So does the audit log's retention (hourly; the first pass at once).
  app.auditPruner.start();
  const listening = `http://${config.host}:${port}`;
  if (demoLoaded) printDemoHelp(io, config, listening);
  if (setup !== undefined) printSetupLink(io, config, setup, listening);
  // Last, so that whoever waits for this line has everything else already.
  io.out(`listening on http://${config.host}:${port}`);
}

/** Starts the listener of replies by mail, when configured, and prints `smtp inbound on HOST:PORT`. */
async function listenInbound(
  app: ReturnType<typeof buildApp>,
  config: Config,
  io: CommandIo,
  stop: () => Promise<void>,
): Promise<void> {
  if (app.mailInbound === undefined) return;
  try {
    const port = await app.mailInbound.listen();
    io.out(`smtp inbound on ${config.host}:${port}`);
  } catch (error) {
    await stop();
    const port = config.mail.inboundPort ?? 0;
    throw new CommandError(listenProblem(error, config.host, port, "--smtp-inbound-port"), { cause: error });
  }
}

/** What `prepare` made ready. */
interface Prepared {
  readonly store: Store;
  readonly blobs: BlobStore;
  readonly demoLoaded: boolean;
  /** The first run's setup link, when the database has no account and no demo was loaded. */
  readonly setup: FirstRunLink | undefined;
}

/**
 * Opens and migrates the store, sweeps old temporary files, loads the demo into an empty database
 * (or, with --no-demo, makes the first run's setup link while no account exists).
 */
async function prepare(config: Config, io: CommandIo): Promise<Prepared> {
  const blobs = await openBlobStore(config.blobStore, config.dataDir);
  let store: Store | undefined;
  try {
    // The server runs for long: checkpoints from a thread of their own (store/sqlite/checkpointer.ts).
    store = await openStore(config.store, { backgroundCheckpoints: true });
    await store.migrate();
    await sweepTemporaryFiles(blobs, io);
    const demoLoaded = config.demo && (await store.isEmpty()) ? await loadDemo(store, blobs) : false;
    const setup = demoLoaded ? undefined : await beginFirstRun({ store, clock: systemClock });
    return { store, blobs, demoLoaded, setup };
  } catch (error) {
    await store?.close();
    await blobs.close();
    blobs.removeTemp();
    throw error;
  }
}

async function loadDemo(store: Store, blobs: BlobStore): Promise<boolean> {
  const written = validateSeed(JSON.parse(await readFile(DEMO_FILE, "utf8")));
  const seed = shiftSeedDates(written, demoShiftDays(systemClock.now()));
  await loadSeed({ store, blobs, clock: systemClock }, seed);
  return true;
}

function printDemoHelp(io: CommandIo, config: Config, listening: string): void {
  const base = config.publicUrl ?? listening;
  io.out(`
Loaded the demo workspace: users alice@example.com and bob@example.com, password "kairan-demo".
Read the demo group's board:

  curl -H 'Authorization: Bearer alice-demo-token' '${base}/api/board/V2?group=1:1'
`);
}

/**
 * Without the demo and without any account (the first run of an empty database): a one-time setup
 * link on standard output, the one place its secret is written (only its hash is stored).
 */
function printSetupLink(io: CommandIo, config: Config, setup: FirstRunLink, listening: string): void {
  const base = config.publicUrl ?? listening;
  io.out(`
This server has no account yet. Open this link to create the first administrator
(it works once, until ${new Date(setup.expiresAt).toISOString()}; restart the server for a new one):

  setup: ${base}/setup/${setup.secret}
`);
}

/** Temporary files of crashed processes go at start, and again every minute while serving (temp-area.ts). */
async function sweepTemporaryFiles(blobs: BlobStore, io: CommandIo): Promise<void> {
  const removed = await blobs.sweepTemp();
  if (removed > 0) io.err(`removed ${removed} temporary upload(s) left by a stopped process`);
}

/** The sweep of every minute while serving: stopped with the server (the process may go on: a test's). */
function sweepEveryMinute(blobs: BlobStore, io: CommandIo): NodeJS.Timeout {
  const sweep = () => void blobs.sweepTemp().catch((error: unknown) => io.err(format(error)));
  return setInterval(sweep, SWEEP_EVERY_MS).unref();
}

const SWEEP_EVERY_MS = 60_000;

/** Beyond the grace period, what closing the store and the last answers may take before exit is forced. */
export const EXIT_MARGIN_MS = 4000;

/**
 * Finishes in-flight requests (refusing new ones with 503, guards.ts), closes the store, removes
 * this process's temporary files and exits 0. It exits within the grace period plus EXIT_MARGIN_MS
 * whatever happens (status 1 when forced); a second signal exits at once.
 */
function stopOnSignals(
  io: CommandIo,
  owner: CliProcess,
  graceMs: number,
  blobs: BlobStore,
  stop: () => Promise<void>,
): void {
  let stopping = false;
  const exit = (code: number) => {
    blobs.removeTemp();
    owner.exit(code);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) exit(1);
    stopping = true;
    io.err(`${signal}: finishing in-flight requests (at most ${graceMs / 1000} s), then stopping`);
    setTimeout(() => {
      io.err("requests still running after the grace period: exiting anyway");
      exit(1);
    }, graceMs + EXIT_MARGIN_MS).unref();
    stop().then(
      () => exit(0),
      (error: unknown) => {
        io.err(format(error));
        exit(1);
      },
    );
  };
  owner.onSignal(onSignal);
}
