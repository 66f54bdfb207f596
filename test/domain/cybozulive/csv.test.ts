import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readCsv } from "../../../src/domain/cybozulive/csv.js";
import { decodeExport } from "../../../src/domain/cybozulive/decode.js";
import { ImportFileError } from "../../../src/domain/cybozulive/errors.js";

const values = (text: string) => readCsv(text, "f.csv").map((record) => record.fields.map((field) => field.value));

/** The error a read throws, with its place. */
function failure(text: string): ImportFileError {
  try {
    readCsv(text, "f.csv");
  } catch (error) {
    assert.ok(error instanceof ImportFileError);
    return error;
  }
  assert.fail("the read should fail");
}

describe("decodeExport", () => {
  it("reads UTF-8 with and without a BOM alike", () => {
    const text = '"ID","タイトル"\r\n';
    const plain = decodeExport(Buffer.from(text, "utf8"));
    const withBom = decodeExport(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, "utf8")]));
    assert.deepEqual(plain, { text, encoding: "utf-8", bom: false });
    assert.deepEqual(withBom, { text, encoding: "utf-8", bom: true });
  });

  it("reads bytes that are not UTF-8 as Windows-31J, vendor characters included", () => {
    // "髙橋①" in CP932: 0xFB 0xFC is 髙 (an IBM extension), 0x87 0x40 is ① (an NEC one).
    const bytes = Buffer.from([0xfb, 0xfc, 0x8b, 0xb4, 0x87, 0x40, 0x0d, 0x0a]);
    assert.deepEqual(decodeExport(bytes), { text: "髙橋①\r\n", encoding: "windows-31j", bom: false });
  });

  it("reads an empty file as empty UTF-8", () => {
    assert.deepEqual(decodeExport(new Uint8Array()), { text: "", encoding: "utf-8", bom: false });
  });
});

describe("readCsv", () => {
  it("reads quoted fields with commas, doubled quotes and CRLF line breaks inside", () => {
    assert.deepEqual(values('"a,b","say ""hi""","one\r\ntwo"\r\n"x","",""\r\n'), [
      ["a,b", 'say "hi"', "one\ntwo"],
      ["x", "", ""],
    ]);
  });

  it("reads unquoted fields, LF and CR line ends, and a last record without a line end", () => {
    assert.deepEqual(values("a,b\nc,d\re,f"), [
      ["a", "b"],
      ["c", "d"],
      ["e", "f"],
    ]);
  });

  it("skips empty lines between records and counts lines across multi-line fields", () => {
    const records = readCsv('"h"\r\n\r\n"one\r\ntwo"\r\n\r\n"next",x\r\n', "f.csv");
    assert.deepEqual(
      records.map((record) => record.line),
      [1, 3, 6],
    );
    assert.deepEqual(
      records[2]?.fields.map((field) => field.column),
      [1, 8],
    );
  });

  it("keeps an empty last field after a trailing comma", () => {
    assert.deepEqual(values('"a",\r\n'), [["a", ""]]);
  });

  it("refuses a quote left open, naming the line and column where it opened", () => {
    const error = failure('"h1","h2"\r\n"a","b\r\nc\r\n');
    assert.deepEqual([error.file, error.line, error.column], ["f.csv", 2, 5]);
    assert.match(error.message, /^f\.csv, line 2, column 5: a quoted field is not closed/);
  });

  it("refuses text after a closing quote and a quote inside an unquoted field", () => {
    assert.deepEqual(pick(failure('"a"b,c\r\n')), [1, 4]);
    assert.deepEqual(pick(failure('x,a"b\r\n')), [1, 4]);
  });
});

function pick(error: ImportFileError): [number, number] {
  return [error.line, error.column];
}
