// The audit log's downloads: CSV (RFC 4180, for a spreadsheet) and JSON Lines (for a tool), one
// row per action, newest first, the times as ISO 8601 UTC.
import type { AuditEventRow } from "../store/queries/audit-events.js";

const COLUMNS = [
  "id",
  "time",
  "action",
  "outcome",
  "actor_user_id",
  "actor",
  "address",
  "target_kind",
  "target_id",
  "target",
  "group_id",
  "details",
] as const;

/** A row as plain fields, in COLUMNS order. */
function fieldsOf(row: AuditEventRow): Record<(typeof COLUMNS)[number], string | number | null> {
  return {
    id: row.id,
    time: new Date(row.created_at).toISOString(),
    action: row.action,
    outcome: row.outcome,
    actor_user_id: row.actor_user_id,
    actor: row.actor_label,
    address: row.address,
    target_kind: row.target_kind,
    target_id: row.target_id,
    target: row.target_label,
    group_id: row.group_id,
    details: row.details,
  };
}

/**
 * A CSV cell: quoted when it holds a comma, quote or line break; a text a spreadsheet would
 * read as a formula (=, +, -, @, tab, CR first) gets a leading apostrophe (OWASP's CSV injection).
 */
function csvCell(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The rows as CSV with a header line, CRLF line ends. */
export function auditCsv(rows: readonly AuditEventRow[]): string {
  const lines = [COLUMNS.join(",")];
  for (const row of rows) {
    const fields = fieldsOf(row);
    lines.push(COLUMNS.map((column) => csvCell(fields[column])).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}

/** The rows as JSON Lines: one object a line, `details` as the object it was written as. */
export function auditJsonLines(rows: readonly AuditEventRow[]): string {
  return rows
    .map((row) => {
      let details: unknown = row.details;
      try {
        details = JSON.parse(row.details);
      } catch {
        // kept as the text it is
      }
      return `${JSON.stringify({ ...fieldsOf(row), details })}\n`;
    })
    .join("");
}
