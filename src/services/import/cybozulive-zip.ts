// The export as a zip (`kairan import cybozulive FILE.zip`): the .csv and .txt files anywhere in
// it, read into memory within the bounds of IMPORT_ZIP_LIMITS, checked before a byte is unpacked
// (the sizes the zip declares) and while unpacking (the bytes that come out). Zips made on
// Japanese Windows store names in CP932 without the UTF-8 flag: a name is UTF-8 when the flag says
// so or when its bytes are valid UTF-8, else CP932. Folders and macOS's __MACOSX/ are left out.
import type { Readable } from "node:stream";
import yauzl from "yauzl";
import { nextEntry, zipErrorLine } from "../zip-entries.js";
import type { ExportFile } from "../../domain/cybozulive/bundle.js";
import { ImportFileError } from "../../domain/cybozulive/errors.js";
import { IMPORT_ZIP_LIMITS } from "../../domain/limits.js";

/** The files of an export the importer reads: the CSV files and the chat rooms' text files. */
export const EXPORT_FILE = /\.(csv|txt)$/i;

/** The bounds a zip is read within (IMPORT_ZIP_LIMITS; tests give small ones). */
export interface ZipLimits {
  readonly maxEntries: number;
  readonly maxEntryBytes: number;
  readonly maxTotalBytes: number;
}

/** A zip to read: a file's path, or its bytes (an upload); `name` is how messages name it. */
export type ZipSource = { readonly name: string } & ({ readonly path: string } | { readonly bytes: Buffer });

/** The general purpose flag's bit that says a name is UTF-8. */
const UTF8_NAME = 0x800;

/**
 * The export files of a zip, each named `<zip>:<path in the zip>`, in the zip's order.
 * @throws ImportFileError a file that is no zip, an encrypted entry, a bound of the zip passed
 */
export async function readExportZip(source: ZipSource, limits: ZipLimits = IMPORT_ZIP_LIMITS): Promise<ExportFile[]> {
  const broken = (entry: string | undefined, reason: string) =>
    new ImportFileError(
      { file: entry === undefined ? source.name : `${source.name}:${entry}`, line: 0, column: 0 },
      reason,
    );
  const options = { lazyEntries: true, decodeStrings: false, autoClose: false } as const;
  let zip: yauzl.ZipFile;
  try {
    zip =
      "path" in source
        ? await yauzl.openPromise(source.path, options)
        : await yauzl.fromBufferPromise(source.bytes, options);
  } catch (error) {
    throw broken(undefined, `not a zip file that can be read (${zipErrorLine(error)})`);
  }
  try {
    if (zip.entryCount > limits.maxEntries)
      throw broken(
        undefined,
        `the zip holds ${zip.entryCount} entries; an export may have at most ${limits.maxEntries}`,
      );
    const files: ExportFile[] = [];
    let total = 0;
    for (let entry = await nextEntry(zip); entry !== undefined; entry = await nextEntry(zip)) {
      const name = entryName(entry);
      if (name.endsWith("/") || name.split("/").includes("__MACOSX") || !EXPORT_FILE.test(name)) continue;
      if (entry.isEncrypted()) throw broken(name, "the entry is encrypted; make the zip without a password");
      if (entry.uncompressedSize > limits.maxEntryBytes)
        throw broken(
          name,
          `unpacks to ${entry.uncompressedSize} bytes; one file may have at most ${limits.maxEntryBytes}`,
        );
      total += entry.uncompressedSize;
      if (total > limits.maxTotalBytes)
        throw broken(
          name,
          `the files unpack to more than ${limits.maxTotalBytes} bytes together, the most an export may`,
        );
      const bytes = await unpack(zip, entry, limits.maxEntryBytes).catch((error: unknown) => {
        throw broken(name, `cannot be unpacked (${zipErrorLine(error)})`);
      });
      files.push({ name: `${source.name}:${name}`, bytes });
    }
    return files;
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    throw broken(undefined, `not a zip file that can be read (${zipErrorLine(error)})`);
  } finally {
    zip.close();
  }
}

/** An entry's bytes; the count is kept while unpacking, whatever the zip declared. */
async function unpack(zip: yauzl.ZipFile, entry: yauzl.Entry, max: number): Promise<Buffer> {
  const stream: Readable = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const part = chunk as Buffer;
    size += part.length;
    if (size > max) {
      stream.destroy();
      throw new Error(`it unpacks to more than ${max} bytes`);
    }
    chunks.push(part);
  }
  return Buffer.concat(chunks, size);
}

/** The entry's path: UTF-8 by the flag or by its bytes, else CP932; `\` read as a folder separator. */
export function entryName(entry: Pick<yauzl.Entry, "fileNameRaw" | "generalPurposeBitFlag">): string {
  const raw = entry.fileNameRaw;
  let name: string;
  if ((entry.generalPurposeBitFlag & UTF8_NAME) !== 0) name = new TextDecoder("utf-8").decode(raw);
  else {
    try {
      name = new TextDecoder("utf-8", { fatal: true }).decode(raw);
    } catch {
      name = new TextDecoder("shift_jis").decode(raw);
    }
  }
  return name.replaceAll("\\", "/");
}
