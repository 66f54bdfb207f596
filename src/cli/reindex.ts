import { openBlobStore } from "../blobs/open.js";
import { systemClock } from "../clock.js";
import { loadConfig } from "../config/config.js";
import { rebuildSearchIndex } from "../services/search/search-index.js";
import { openStore } from "../store/open.js";
import type { CommandIo } from "./io.js";
import { SERVER_OPTIONS, UsageError, configFlags, parseCommand, commandOptionsHelp } from "./options.js";

/** Usage of `kairan reindex`. */
export const REINDEX_HELP = `Usage: kairan reindex [options]

Rebuilds the full-text search index from the stored items: the searchable text of every shared
file again (reading plain-text and CSV files from the blob store) and the database's index
(SQLite: the FTS5 tables; PostgreSQL: the pg_trgm GIN indexes). The index is kept up to date by
every write; run this after restoring files, or to compact the index. The server may keep running.
Prints a JSON summary: files, text files, unreadable text files, milliseconds, and the database
size in bytes before and after.

${commandOptionsHelp()}`;

/** `kairan reindex`. @throws UsageError, ConfigError */
export async function reindex(args: readonly string[], io: CommandIo): Promise<void> {
  const { values, positionals } = parseCommand(args, SERVER_OPTIONS);
  if (values.help) return io.out(REINDEX_HELP);
  if (positionals.length > 0) throw new UsageError("kairan reindex takes no positional arguments");
  const config = loadConfig(configFlags(values), io.env);
  const blobs = await openBlobStore(config.blobStore, config.dataDir);
  try {
    const store = await openStore(config.store);
    try {
      await store.migrate();
      io.out(JSON.stringify(await rebuildSearchIndex({ store, blobs, clock: systemClock })));
    } finally {
      await store.close();
    }
  } finally {
    await blobs.close();
    blobs.removeTemp();
  }
}
