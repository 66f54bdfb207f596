// The one CSV writer of the downloads (the audit log, a group's tasks and members): RFC 4180 with
// CRLF line ends and a header line, cells a spreadsheet would run as a formula defused.

/** A cell's value: text, a number, or nothing (an empty cell). */
export type CsvValue = string | number | null;

/** The UTF-8 byte order mark: Excel reads a CSV without it in the system's code page (Shift_JIS in Japan). */
export const UTF8_BOM = "\ufeff";

/**
 * A CSV cell: quoted when it holds a comma, quote or line break; a text a spreadsheet would
 * read as a formula (=, +, -, @, tab, CR first) gets a leading apostrophe (OWASP's CSV injection).
 */
export function csvCell(value: CsvValue): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A header line then one line a row, each ended by CRLF; `bom` puts {@link UTF8_BOM} first. */
export function csvText(
  header: readonly string[],
  rows: Iterable<readonly CsvValue[]>,
  options: { readonly bom?: boolean } = {},
): string {
  const lines = [header.map(csvCell).join(",")];
  for (const row of rows) lines.push(row.map(csvCell).join(","));
  return `${options.bom === true ? UTF8_BOM : ""}${lines.join("\r\n")}\r\n`;
}
