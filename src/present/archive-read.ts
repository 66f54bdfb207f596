// One page of an archive read back: parsed by the hardened parser (no DTD, no entities, bounded),
// its entries' `<kairan:record>` turned into rows of the table the page belongs to.
import { type XmlElement, XmlParseError, attribute, child, children, parseXml } from "../atom/parse.js";
import { NS } from "../atom/namespaces.js";
import { ARCHIVE_NS, ArchiveError, type ArchiveRow, type TableSpec } from "../domain/archive.js";
import { ARCHIVE_ZIP_LIMITS } from "../domain/limits.js";

const INTEGER = /^-?\d{1,16}$/;

/**
 * The rows of a page of `table`.
 * @throws ArchiveError malformed XML, an entry without its record, a record of another table, a bad number
 */
export function pageRows(label: string, name: string, text: string, table: string, spec: TableSpec): ArchiveRow[] {
  const fail = (reason: string) => new ArchiveError(`${label}: ${name}: ${reason}`);
  const root = parsePage(text, fail);
  if (root.ns !== NS.atom || root.local !== "feed") throw fail("not an Atom feed");
  return children(root, NS.atom, "entry").map((entry, index) => {
    const record = child(entry, ARCHIVE_NS, "record");
    if (record === undefined) throw fail(`entry ${index + 1} has no kairan:record`);
    if (attribute(record, "table") !== table) throw fail(`entry ${index + 1} is a record of another table`);
    const row: Record<string, string | number | null> = {};
    for (const column of spec.columns) {
      const value = attribute(record, column);
      if (value === undefined) row[column] = null;
      else if (spec.text.includes(column)) row[column] = value;
      else if (INTEGER.test(value)) row[column] = Number(value);
      else throw fail(`entry ${index + 1}: ${column} is not an integer`);
    }
    for (const column of spec.key) if (row[column] === null) throw fail(`entry ${index + 1} has no ${column}`);
    return row;
  });
}

function parsePage(text: string, fail: (reason: string) => ArchiveError): XmlElement {
  try {
    return parseXml(text, {
      maxBytes: ARCHIVE_ZIP_LIMITS.maxPageBytes,
      maxDepth: 16,
      maxElements: ARCHIVE_ZIP_LIMITS.maxPageElements,
    });
  } catch (error) {
    if (error instanceof XmlParseError) throw fail(`not an Atom document that can be read (${error.message})`);
    throw error;
  }
}
