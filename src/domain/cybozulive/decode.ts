// The export's bytes as text. The original offered UTF-8 or "Shift JIS"; files re-saved in Excel
// gain a BOM. Shift JIS is read as Windows-31J (CP932), the superset that also has the vendor
// characters (髙, 﨑, ①) strict Shift_JIS lacks: WHATWG's (and so Node's) "shift_jis" decoder
// is that superset.

/** The encodings an export is read in. */
export type ExportEncoding = "utf-8" | "windows-31j";

/** Decoded text and how it was read. */
export interface DecodedText {
  readonly text: string;
  readonly encoding: ExportEncoding;
  readonly bom: boolean;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

/** UTF-8 when the bytes are valid UTF-8 (after an optional BOM), else Windows-31J. */
export function decodeExport(bytes: Uint8Array): DecodedText {
  const bom = UTF8_BOM.every((byte, index) => bytes[index] === byte);
  const body = bom ? bytes.subarray(UTF8_BOM.length) : bytes;
  try {
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body), encoding: "utf-8", bom };
  } catch {
    // Not UTF-8: a Shift JIS export. Bytes it cannot map become U+FFFD rather than stopping the read.
    return { text: new TextDecoder("shift_jis").decode(body), encoding: "windows-31j", bom: false };
  }
}
