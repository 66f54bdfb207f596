import { readFile } from "node:fs/promises";
import { openBlobStore } from "../blobs/open.js";
import { systemClock } from "../clock.js";
import { loadConfig } from "../config/config.js";
import { loadSeed } from "../seed/load.js";
import { SeedError, validateSeed } from "../seed/validate.js";
import { openStore } from "../store/open.js";
import type { CommandIo } from "./io.js";
import { SERVER_OPTIONS, UsageError, configFlags, parseCommand, commandOptionsHelp } from "./options.js";

/** Usage of `kairan seed`. */
export const SEED_HELP = `Usage: kairan seed FILE [options]

Loads a workspace description (JSON, see docs/operations.md) into the configured database in one
transaction, and prints a JSON object mapping every ref to the identifier it got. An invalid
file is reported with the path of each problem, and nothing is written. A seed adds a new
workspace, it never merges: when the database already holds one of its users (by e-mail) or
applications (by consumer key), it names them and loads nothing.

${commandOptionsHelp()}`;

/** `kairan seed FILE`. @throws UsageError, SeedError, ConfigError */
export async function seed(args: readonly string[], io: CommandIo): Promise<void> {
  const { values, positionals } = parseCommand(args, SERVER_OPTIONS);
  if (values.help) return io.out(SEED_HELP);
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0) throw new UsageError("kairan seed takes exactly one FILE");
  const config = loadConfig(configFlags(values), io.env);
  const parsed = validateSeed(await readJson(file));
  const blobs = await openBlobStore(config.blobStore, config.dataDir);
  try {
    const store = await openStore(config.store);
    try {
      await store.migrate();
      io.out(JSON.stringify(await loadSeed({ store, blobs, clock: systemClock }, parsed)));
    } finally {
      await store.close();
    }
  } finally {
    await blobs.close();
    // Its files are committed or discarded: no temporary directory is left for the server to sweep.
    blobs.removeTemp();
  }
}

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new SeedError([`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? "error"})`]);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SeedError([`${file}: not valid JSON (${(error as Error).message})`]);
  }
}
