// The archive written as one zip, member by member as archive-export.ts reads them: each member's
// sha256 and size are counted as its bytes pass into the zip, and `manifest.json` comes last with
// the counts per kind and every member's checksum. archiver is loaded at the first export
// (docs/architecture.md "Libraries of one feature load when first used").
import { createHash } from "node:crypto";
import { type Readable, Transform, type Writable } from "node:stream";
import type { Archiver } from "archiver";
import { entryWritten } from "../zip-entries.js";
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, type ArchiveManifest } from "../../domain/archive.js";
import type { ArchiveMember } from "./archive-export.js";

/** The date of every member (a zip date starts in 1980). */
const FIXED_DATE = new Date(Date.UTC(2000, 0, 1));

/** What was written: the manifest (counts and checksums). */
export type ArchiveReport = ArchiveManifest;

/**
 * Writes `members` and the manifest as a zip into `output`; settles when the zip is finished and
 * has been handed to `output`. A failure (a member that cannot be read, the output closed) rejects.
 */
export async function writeArchiveZip(
  members: AsyncIterable<ArchiveMember>,
  head: { readonly groups: readonly number[]; readonly now: number },
  output: Writable,
): Promise<ArchiveReport> {
  const { ZipArchive } = await import("archiver");
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const finished = new Promise<void>((resolve, reject) => {
    output.once("close", resolve).once("finish", resolve).once("error", reject);
    zip.once("error", reject);
  });
  // Awaited below; until then a failure is handled there, never an unhandled rejection.
  finished.catch(() => undefined);
  zip.pipe(output);
  const counts: Record<string, number> = {};
  const checksums: Record<string, { sha256: string; size: number }> = {};
  try {
    for await (const member of members) {
      counts[member.kind] = (counts[member.kind] ?? 0) + member.rows;
      const source = typeof member.body === "string" ? Buffer.from(member.body, "utf8") : await member.body();
      checksums[member.name] = await append(zip, member.name, source);
    }
    const manifest: ArchiveManifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      exportedAt: new Date(head.now).toISOString(),
      groups: head.groups,
      counts,
      members: checksums,
    };
    await append(zip, "manifest.json", Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, "utf8"));
    await zip.finalize();
    await finished;
    return manifest;
  } catch (error) {
    zip.destroy(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

/** Appends one member, its bytes counted and hashed on their way in; settles when the zip has it. */
async function append(
  zip: Archiver,
  name: string,
  source: Buffer | Readable,
): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  // A transform passes nothing on until the zip reads it: no byte flows past before the zip listens.
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  const taken = entryWritten(zip, "the archive was closed");
  // A fixed date: two exports of the same rows are the same bytes but for the manifest's time.
  zip.append(counted, { name, date: FIXED_DATE });
  if (Buffer.isBuffer(source)) counted.end(source);
  else {
    source.once("error", (error) => counted.destroy(error));
    source.pipe(counted);
  }
  await taken;
  return { sha256: hash.digest("hex"), size };
}
