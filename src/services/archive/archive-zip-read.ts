// Reading a portable archive (`kairan import FILE`) within ARCHIVE_ZIP_LIMITS: the zip's directory
// first (entry count and declared sizes checked before a byte is unpacked), then the manifest, then
// every member's sha256 against it (a member missing, one the manifest does not list, one whose
// bytes differ: refused before anything is written); the import then opens members by name.
import { createHash } from "node:crypto";
import { Transform, type Readable } from "node:stream";
import yauzl from "yauzl";
import { nextEntry, zipErrorLine } from "../zip-entries.js";
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, ArchiveError, type ArchiveManifest } from "../../domain/archive.js";
import { ARCHIVE_ZIP_LIMITS } from "../../domain/limits.js";

/** The bounds an archive is read within (tests give small ones). */
export type ArchiveLimits = { readonly [K in keyof typeof ARCHIVE_ZIP_LIMITS]: number };

/** An open archive whose members have been checked against its manifest. */
export interface OpenArchive {
  readonly manifest: ArchiveManifest;
  has(name: string): boolean;
  /** A page's text (UTF-8). @throws ArchiveError */
  text(name: string): Promise<string>;
  /** Stored bytes, streamed within the bound of one file. @throws ArchiveError */
  open(name: string): Promise<Readable>;
  close(): void;
}

/**
 * Opens an archive and checks it whole: bounds, manifest, every member's checksum.
 * @throws ArchiveError naming the cause
 */
export async function openArchive(
  path: string,
  label: string,
  limits: ArchiveLimits = ARCHIVE_ZIP_LIMITS,
): Promise<OpenArchive> {
  const fail = (reason: string) => new ArchiveError(`${label}: ${reason}`);
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false });
  } catch (error) {
    throw fail(`not a zip file that can be read (${zipErrorLine(error)})`);
  }
  try {
    const entries = await directory(zip, limits, fail);
    const manifest = await readManifest(zip, entries, limits, fail);
    const listed = Object.entries(manifest.members);
    for (const name of entries.keys())
      if (name !== "manifest.json" && manifest.members[name] === undefined)
        throw fail(`${name} is in the zip but not in manifest.json`);
    for (const [name, expected] of listed) {
      const entry = entries.get(name);
      if (entry === undefined) throw fail(`${name} is listed in manifest.json but missing from the zip`);
      const got = await checksum(zip, entry, bound(name, limits), fail);
      if (got.sha256 !== expected.sha256 || got.size !== expected.size)
        throw fail(`${name} does not match its sha256 checksum in manifest.json`);
    }
    return {
      manifest,
      has: (name) => entries.has(name),
      text: async (name) => {
        const entry = entries.get(name);
        if (entry === undefined) throw fail(`${name} is missing`);
        return (await unpack(zip, entry, limits.maxPageBytes, fail)).toString("utf8");
      },
      open: async (name) => {
        const entry = entries.get(name);
        if (entry === undefined) throw fail(`${name} is missing`);
        return bounded(await zip.openReadStreamPromise(entry), limits.maxBlobBytes, () =>
          fail(`${name} unpacks to more than ${limits.maxBlobBytes} bytes`),
        );
      },
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    if (error instanceof ArchiveError) throw error;
    throw fail(`not a zip file that can be read (${zipErrorLine(error)})`);
  }
}

function bound(name: string, limits: ArchiveLimits): number {
  return name.startsWith("blobs/") ? limits.maxBlobBytes : limits.maxPageBytes;
}

async function directory(
  zip: yauzl.ZipFile,
  limits: ArchiveLimits,
  fail: (reason: string) => ArchiveError,
): Promise<Map<string, yauzl.Entry>> {
  if (zip.entryCount > limits.maxEntries)
    throw fail(`the zip holds ${zip.entryCount} entries; an archive may have at most ${limits.maxEntries}`);
  const entries = new Map<string, yauzl.Entry>();
  let total = 0;
  for (let entry = await nextEntry(zip); entry !== undefined; entry = await nextEntry(zip)) {
    const name = entry.fileName;
    if (name.endsWith("/")) continue;
    if (entry.isEncrypted()) throw fail(`${name} is encrypted`);
    const max = bound(name, limits);
    if (entry.uncompressedSize > max)
      throw fail(`${name} unpacks to ${entry.uncompressedSize} bytes; a member may have at most ${max}`);
    total += entry.uncompressedSize;
    if (total > limits.maxTotalBytes)
      throw fail(`the members unpack to more than ${limits.maxTotalBytes} bytes together`);
    if (entries.has(name)) throw fail(`${name} is in the zip twice`);
    entries.set(name, entry);
  }
  return entries;
}

async function readManifest(
  zip: yauzl.ZipFile,
  entries: ReadonlyMap<string, yauzl.Entry>,
  limits: ArchiveLimits,
  fail: (reason: string) => ArchiveError,
): Promise<ArchiveManifest> {
  const entry = entries.get("manifest.json");
  if (entry === undefined) throw fail("manifest.json is missing: not a Kairan archive");
  let value: unknown;
  try {
    value = JSON.parse((await unpack(zip, entry, limits.maxPageBytes, fail)).toString("utf8"));
  } catch (error) {
    if (error instanceof ArchiveError) throw error;
    throw fail(`manifest.json is not valid JSON (${zipErrorLine(error)})`);
  }
  const manifest = value as Partial<ArchiveManifest> | null;
  if (manifest === null || typeof manifest !== "object" || manifest.format !== ARCHIVE_FORMAT)
    throw fail(`manifest.json does not describe a ${ARCHIVE_FORMAT}`);
  if (manifest.version !== ARCHIVE_VERSION)
    throw fail(`manifest.json has version ${String(manifest.version)}; this Kairan reads version ${ARCHIVE_VERSION}`);
  const groupsOk = Array.isArray(manifest.groups) && manifest.groups.every((id) => Number.isSafeInteger(id) && id > 0);
  const membersOk =
    typeof manifest.members === "object" &&
    manifest.members !== null &&
    Object.values(manifest.members).every(
      (member) => typeof member?.sha256 === "string" && Number.isSafeInteger(member.size),
    );
  if (!groupsOk || !membersOk) throw fail("manifest.json lacks its groups or its members' checksums");
  return manifest as ArchiveManifest;
}

async function checksum(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  max: number,
  fail: (reason: string) => ArchiveError,
): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  const stream = bounded(await zip.openReadStreamPromise(entry), max, () =>
    fail(`${entry.fileName} unpacks to more than ${max} bytes`),
  );
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest("hex"), size };
}

async function unpack(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  max: number,
  fail: (reason: string) => ArchiveError,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const stream = bounded(await zip.openReadStreamPromise(entry), max, () =>
    fail(`${entry.fileName} unpacks to more than ${max} bytes`),
  );
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The stream's bytes, failing past `max` whatever the zip declared. */
function bounded(stream: Readable, max: number, tooLarge: () => Error): Readable {
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > max) done(tooLarge());
      else done(null, chunk);
    },
  });
  stream.once("error", (error) => counter.destroy(error));
  return stream.pipe(counter);
}
