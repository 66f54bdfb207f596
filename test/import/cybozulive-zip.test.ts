import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { readExport } from "../../src/domain/cybozulive/bundle.js";
import { ImportFileError } from "../../src/domain/cybozulive/errors.js";
import { IMPORT_ZIP_LIMITS } from "../../src/domain/limits.js";
import { type ZipLimits, entryName, readExportZip } from "../../src/services/import/cybozulive-zip.js";

const FIXTURES = resolve(import.meta.dirname, "../fixtures/cybozulive");
const JA_ZIP = "export-ja-cp932-names.zip";
const EN_ZIP = "export-en-utf8-names.zip";
const zipBytes = (name: string) => readFileSync(join(FIXTURES, "zips", name));
const folderSizes = (folder: string) =>
  readdirSync(join(FIXTURES, folder)).map((name) => readFileSync(join(FIXTURES, folder, name)).length);

/** The error of reading the zip within these bounds. */
async function failure(name: string, limits: ZipLimits, bytes = zipBytes(name)): Promise<ImportFileError> {
  try {
    await readExportZip({ name, bytes }, limits);
  } catch (error) {
    assert.ok(error instanceof ImportFileError, String(error));
    return error;
  }
  assert.fail("the read should fail");
}

describe("readExportZip: the export as a zip", () => {
  it("reads CP932 names without the UTF-8 flag, in a subfolder, leaving out folders, __MACOSX and other files", async () => {
    const files = await readExportZip({ name: JA_ZIP, path: join(FIXTURES, "zips", JA_ZIP) });
    assert.deepEqual(files.map((file) => file.name).sort(), [
      `${JA_ZIP}:サイボウズLive/live_ToDoリスト_20180305.csv`,
      `${JA_ZIP}:サイボウズLive/live_イベント_20180305.csv`,
      `${JA_ZIP}:サイボウズLive/live_メンバー名簿_20180305.csv`,
      `${JA_ZIP}:サイボウズLive/live_掲示板_20180305.csv`,
      `${JA_ZIP}:サイボウズLive/チャット_雑談.txt`,
    ]);
    const zipped = readExport(files);
    const folder = readExport(
      readdirSync(join(FIXTURES, "ja-cp932")).map((name) => ({
        name,
        bytes: readFileSync(join(FIXTURES, "ja-cp932", name)),
      })),
    );
    assert.deepEqual(
      zipped.files.map((f) => [f.kind, f.rows]),
      folder.files.map((f) => [f.kind, f.rows]),
      "the same files, read alike",
    );
    assert.deepEqual(zipped.chatRooms[0]?.title, "雑談");
  });

  it("reads UTF-8 names with the flag and without it, from bytes as from a path", async () => {
    const files = await readExportZip({ name: EN_ZIP, bytes: zipBytes(EN_ZIP) });
    assert.deepEqual(files.map((file) => file.name).sort(), [
      `${EN_ZIP}:Café export/Lunch chat.txt`,
      `${EN_ZIP}:Café export/live_Events_20180713.csv`,
      `${EN_ZIP}:Café export/live_Forum_20180713.csv`,
      `${EN_ZIP}:Café export/live_Member List_20180713.csv`,
      `${EN_ZIP}:Café export/live_To-Do List_20180713.csv`,
    ]);
    assert.equal(readExport(files).topics.length, 2);
  });

  it("decodes a name as UTF-8 by the flag, else as UTF-8 when it is, else as CP932", () => {
    const name = (text: string, encoding: "utf8" | "cp932", flag: number) =>
      entryName({
        fileNameRaw: encoding === "utf8" ? Buffer.from(text) : Buffer.from([0x95, 0x5c, 0x8e, 0x86]),
        generalPurposeBitFlag: flag,
      });
    assert.equal(name("dir/名簿.csv", "utf8", 0x800), "dir/名簿.csv");
    assert.equal(name("dir/名簿.csv", "utf8", 0), "dir/名簿.csv");
    assert.equal(name("", "cp932", 0), "表紙", "0x5C inside a CP932 character is no folder separator");
    assert.equal(name("dir\\a.csv", "utf8", 0), "dir/a.csv", "a Windows separator");
  });

  it("bounds the entries of the zip, at the limit", async () => {
    const ja = { ...IMPORT_ZIP_LIMITS, maxEntries: 8 };
    assert.equal((await readExportZip({ name: JA_ZIP, bytes: zipBytes(JA_ZIP) }, ja)).length, 5, "8 entries pass");
    const error = await failure(JA_ZIP, { ...ja, maxEntries: 7 });
    assert.equal(error.file, JA_ZIP);
    assert.match(error.message, /^export-ja-cp932-names\.zip: the zip holds 8 entries; an export may have at most 7$/);
  });

  it("bounds each file unpacked, at the limit, naming the entry", async () => {
    const largest = Math.max(...folderSizes("en-utf8"));
    const limits = { ...IMPORT_ZIP_LIMITS, maxEntryBytes: largest };
    assert.equal((await readExportZip({ name: EN_ZIP, bytes: zipBytes(EN_ZIP) }, limits)).length, 5);
    const error = await failure(EN_ZIP, { ...limits, maxEntryBytes: largest - 1 });
    assert.equal(error.file, `${EN_ZIP}:Café export/Lunch chat.txt`, "the largest file");
    assert.match(error.message, new RegExp(`unpacks to ${largest} bytes; one file may have at most ${largest - 1}$`));
  });

  it("bounds the files together, at the limit", async () => {
    const total = folderSizes("en-utf8").reduce((sum, size) => sum + size, 0);
    const limits = { ...IMPORT_ZIP_LIMITS, maxTotalBytes: total };
    assert.equal((await readExportZip({ name: EN_ZIP, bytes: zipBytes(EN_ZIP) }, limits)).length, 5);
    const error = await failure(EN_ZIP, { ...limits, maxTotalBytes: total - 1 });
    assert.match(error.message, new RegExp(`together, the most an export may`));
    assert.match(error.file, /^export-en-utf8-names\.zip:Café export\//);
  });

  it("counts the bytes that come out, whatever the zip declares", async () => {
    const bytes = Buffer.from(zipBytes(EN_ZIP));
    // The central directory's first entry (Lunch chat.txt) declares 10 bytes unpacked.
    const central = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt32LE(10, central + 24);
    const error = await failure(EN_ZIP, IMPORT_ZIP_LIMITS, bytes);
    assert.equal(error.file, `${EN_ZIP}:Café export/Lunch chat.txt`);
    assert.match(error.message, /cannot be unpacked/);
  });

  it("names a file that is no zip, in one line", async () => {
    for (const bytes of [Buffer.from("PK"), Buffer.from("not a zip at all"), zipBytes(EN_ZIP).subarray(0, 200)]) {
      const error = await failure("export.zip", IMPORT_ZIP_LIMITS, bytes);
      assert.equal(error.file, "export.zip");
      assert.match(error.message, /^export\.zip: not a zip file that can be read \(.+\)$/);
    }
  });
});
