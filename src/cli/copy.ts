import { cp, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { openBlobStore } from "../blobs/open.js";
import { localBlobDir } from "../blobs/local.js";
import { copyLocalBlobs } from "../blobs/transfer.js";
import { type BlobStoreConfig, loadBlobStoreConfig } from "../config/config.js";
import { CopyError, copySqliteToPostgres } from "../store/copy.js";
import type { CommandIo } from "./io.js";
import { BLOB_STORE_OPTIONS, BLOB_STORE_OPTIONS_HELP, UsageError, blobStoreFlags, parseCommand } from "./options.js";

/** Usage of `kairan copy`. */
export const COPY_HELP = `Usage: kairan copy --from DIR --to URL [--files-to DIR | --blob-store s3://BUCKET[/PREFIX]]

Copies a SQLite installation into an empty PostgreSQL database: every table, ids preserved, in
one transaction; identity sequences then continue after the largest copied id. Both databases
are first migrated to the latest schema. Stop the server before copying. Stored files are copied
first, inside that transaction: if that fails, no row is committed and the copy can run again
(after emptying --files-to's blobs directory, whose files are never overwritten).

Options:
  --from DIR       data directory of the SQLite installation (holds kairan.sqlite)
  --to URL         postgres://... (?search_path=SCHEMA picks a schema); must hold no rows
  --files-to DIR   data directory of the new installation: stored files (DIR/blobs) are copied
                   there. Servers sharing one PostgreSQL must all see this directory (shared
                   storage), or use --blob-store instead.
  One of the two is required when the source has stored files. Or, to an S3-compatible bucket
  (give the new servers the same settings):
${BLOB_STORE_OPTIONS_HELP}

A non-empty target, a missing source or a missing --files-to is one message and exit status 2.`;

const COPY_OPTIONS = {
  from: { type: "string" },
  to: { type: "string" },
  "files-to": { type: "string" },
  ...BLOB_STORE_OPTIONS,
  help: { type: "boolean", short: "h" },
} as const;

/** `kairan copy`. @throws UsageError, CopyError, ConfigError, BlobStoreError */
export async function copy(args: readonly string[], io: CommandIo): Promise<void> {
  const { values, positionals } = parseCommand(args, COPY_OPTIONS);
  if (values.help) return io.out(COPY_HELP);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  if (!values.from || !values.to) throw new UsageError("kairan copy needs --from DIR and --to URL");
  if (!/^postgres(ql)?:\/\//.test(values.to)) throw new UsageError("--to must be a postgres:// URL");
  const target = loadBlobStoreConfig(blobStoreFlags(values), io.env);
  const filesTo = values["files-to"];
  if (target.kind === "s3" && filesTo)
    throw new UsageError("give either --files-to DIR or --blob-store s3://..., not both");
  const from = resolve(values.from);
  const hasFiles = await isDirectory(localBlobDir(from));
  if (hasFiles && target.kind === "local" && !filesTo) {
    throw new CopyError(
      `${localBlobDir(from)} holds stored files: pass --files-to DIR (the new installation's data directory) or --blob-store s3://BUCKET`,
    );
  }
  const files = hasFiles ? await fileCopy(from, target, filesTo, io) : undefined;
  try {
    const report = await copySqliteToPostgres(join(from, "kairan.sqlite"), values.to, { beforeRows: files?.run });
    for (const [table, rows] of Object.entries(report)) io.out(`${table.padEnd(28)} ${rows} rows`);
    if (files) io.out(files.done());
  } finally {
    await files?.close();
  }
}

/** Copies the stored files to a directory (as they are) or into a bucket; `done` says where. */
async function fileCopy(from: string, target: BlobStoreConfig, filesTo: string | undefined, io: CommandIo) {
  if (target.kind === "local") {
    const to = localBlobDir(resolve(filesTo ?? ""));
    return {
      // errorOnExist with force off: never overwrite files another installation already holds.
      run: () => cp(localBlobDir(from), to, { recursive: true, force: false, errorOnExist: true }),
      done: () => `stored files copied to ${to}`,
      close: async () => {},
    };
  }
  // Uploads pass through a local temporary file, as the server's do; that file lives here.
  const scratch = await mkdtemp(join(tmpdir(), "kairan-copy-"));
  const blobs = await openBlobStore(target, scratch).catch(async (error: unknown) => {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  });
  let copied = 0;
  return {
    run: async () => {
      copied = await copyLocalBlobs(from, blobs, (path) => io.err(`skipped ${path}: not a stored file`));
    },
    done: () => `${copied} stored files copied to s3://${target.bucket}${target.prefix ? `/${target.prefix}` : ""}`,
    close: async () => {
      await blobs.close();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
