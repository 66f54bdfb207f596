// The audit log's downloads: CSV (RFC 4180, for a spreadsheet) and JSON Lines (for a tool), one
// row per action, newest first, the times as ISO 8601 UTC.
import type { AuditEventRow } from "../store/queries/audit-events.js";
import { type CsvValue, csvText } from "./csv.js";

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
function fieldsOf(row: AuditEventRow): Record<(typeof COLUMNS)[number], CsvValue> {
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

/** The rows as CSV with a header line, CRLF line ends (no byte order mark: read by tools first). */
export function auditCsv(rows: readonly AuditEventRow[]): string {
  return csvText(
    COLUMNS,
    rows.map((row) => {
      const fields = fieldsOf(row);
      return COLUMNS.map((column) => fields[column]);
    }),
  );
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
