import { cp, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { CopyError, copySqliteToPostgres } from "../store/copy.js";
import { UsageError, parseCommand } from "./options.js";

/** Usage of `kairan copy`. */
export const COPY_HELP = `Usage: kairan copy --from DIR --to URL [--files-to DIR]

Copies a SQLite installation into an empty PostgreSQL database: every table, ids preserved, in
one transaction; identity sequences then continue after the largest copied id. Both databases
are first migrated to the latest schema. Stop the server before copying.

Options:
  --from DIR       data directory of the SQLite installation (holds kairan.sqlite)
  --to URL         postgres://... (?search_path=SCHEMA picks a schema); must hold no rows
  --files-to DIR   data directory of the new installation: stored files (DIR/blobs) are copied
                   there. Required when the source has stored files; servers sharing one
                   PostgreSQL must all see this directory (shared storage).

A non-empty target, a missing source or a missing --files-to is one message and exit status 2.`;

const COPY_OPTIONS = {
  from: { type: "string" },
  to: { type: "string" },
  "files-to": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** `kairan copy`. @throws UsageError, CopyError */
export async function copy(args: readonly string[]): Promise<void> {
  const { values, positionals } = parseCommand(args, COPY_OPTIONS);
  if (values.help) return void console.log(COPY_HELP);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  if (!values.from || !values.to) throw new UsageError("kairan copy needs --from DIR and --to URL");
  if (!/^postgres(ql)?:\/\//.test(values.to)) throw new UsageError("--to must be a postgres:// URL");
  const from = resolve(values.from);
  const blobs = join(from, "blobs");
  const hasFiles = await isDirectory(blobs);
  if (hasFiles && !values["files-to"]) {
    throw new CopyError(`${blobs} holds stored files: pass --files-to DIR (the new installation's data directory)`);
  }
  const report = await copySqliteToPostgres(join(from, "kairan.sqlite"), values.to);
  for (const [table, rows] of Object.entries(report)) console.log(`${table.padEnd(28)} ${rows} rows`);
  if (hasFiles && values["files-to"]) {
    const to = join(resolve(values["files-to"]), "blobs");
    // errorOnExist with force off: never overwrite files another installation already holds.
    await cp(blobs, to, { recursive: true, force: false, errorOnExist: true });
    console.log(`stored files copied to ${to}`);
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
