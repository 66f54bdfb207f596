import { existsSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import SQLite from "better-sqlite3";
import { loadConfig } from "../config/config.js";
import type { CommandIo } from "./io.js";
import { CommandError, SERVER_OPTIONS, UsageError, configFlags, parseCommand, commandOptionsHelp } from "./options.js";

/** Usage of `kairan backup`. */
export const BACKUP_HELP = `Usage: kairan backup FILE [options]

Writes a consistent copy of the SQLite database to FILE (a new file), safely while the server
runs and writes: SQLite's online backup, not a file copy. The copy holds every write the
server acknowledged before the backup began. Stored files (DIR/blobs or the S3 bucket) are not
in it: copy them as well. PostgreSQL databases are backed up with pg_dump.

To restore: stop the server, move DIR/kairan.sqlite and its -wal and -shm files away, copy FILE
to DIR/kairan.sqlite, start the server.

${commandOptionsHelp()}`;

/** Pages per backup step: all of them at once, so that the copy is one read snapshot (below). */
const ALL_PAGES = 0x7fffffff;

/** `kairan backup FILE`: prints what it wrote as JSON. */
export async function backup(args: readonly string[], io: CommandIo): Promise<void> {
  const { values, positionals } = parseCommand(args, SERVER_OPTIONS);
  if (values.help) return io.out(BACKUP_HELP);
  if (positionals.length !== 1 || positionals[0] === "")
    throw new UsageError(`give exactly one backup file (got ${positionals.length} arguments)`);
  const target = resolve(positionals[0] as string);
  const config = loadConfig(configFlags(values), io.env);
  if (config.store.kind !== "sqlite")
    throw new CommandError("kairan backup copies SQLite databases; back up PostgreSQL with pg_dump");
  const source = config.store.file;
  if (!existsSync(source)) throw new CommandError(`there is no database at ${source} (check --data)`);
  if (existsSync(target)) throw new CommandError(`${target} exists already; give a new file name`);
  if (!existsSync(dirname(target))) throw new CommandError(`the directory ${dirname(target)} does not exist`);
  io.out(JSON.stringify(await onlineBackup(source, target)));
}

/**
 * Copies `source` to `target` through SQLite's online backup on a connection of its own. The
 * first step only counts the pages; the second copies all of them within one read transaction,
 * so the copy is the database as of one commit, and writers (other connections, other processes)
 * go on meanwhile: under WAL a reader blocks no writer. Copying a few pages per step instead would
 * start over whenever a writer commits between two steps, and under steady load never finish.
 * The copy is written under a temporary name, checked, and only then given its name.
 */
async function onlineBackup(source: string, target: string): Promise<Record<string, string | number>> {
  const partial = `${target}.partial-${process.pid}`;
  const database = new SQLite(source, { fileMustExist: true });
  try {
    database.pragma("busy_timeout = 5000");
    const { totalPages } = await database.backup(partial, { progress: () => ALL_PAGES });
    const problem = finishCopy(partial);
    if (problem !== undefined) throw new CommandError(`the backup did not pass SQLite's integrity check: ${problem}`);
    renameSync(partial, target);
    return { backup: target, from: source, pages: totalPages, bytes: statSync(target).size, integrity: "ok" };
  } catch (error) {
    for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(`${partial}${suffix}`, { force: true });
    throw error;
  } finally {
    database.close();
  }
}

/**
 * Makes the copy one self-contained file (it has the source's WAL mode, which would leave -wal and
 * -shm files beside it; the server turns WAL on again when it opens a restored copy), and returns
 * the first line of `PRAGMA integrity_check` unless it says ok.
 */
function finishCopy(file: string): string | undefined {
  const copy = new SQLite(file, { fileMustExist: true });
  try {
    copy.pragma("journal_mode = DELETE");
    const result = String(copy.pragma("integrity_check", { simple: true }));
    return result === "ok" ? undefined : result;
  } finally {
    copy.close();
  }
}
