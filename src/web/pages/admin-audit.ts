// The audit log in the administration (`/admin/audit`): newest first, filtered by action, person,
// group, outcome and dates, paged by id, and downloaded as CSV or JSON Lines under the same filters.
import type { FastifyInstance } from "fastify";
import { AUDIT_ACTIONS, isAuditAction } from "../../domain/audit.js";
import { formatPair, parsePair } from "../../domain/item-id.js";
import { contentDisposition } from "../../http-kit/send.js";
import { type QueryValues, queryValue } from "../../http-kit/query.js";
import { auditCsv, auditJsonLines } from "../../present/audit-export.js";
import { type AuditQuery, readAuditExport, readAuditPage } from "../../services/audit/audit-admin.js";
import type { WebContext } from "../page.js";
import { withQuery } from "../paging.js";
import { registerAdminPage, renderAdmin } from "./admin-guard.js";

const DAY_MS = 86_400_000;
const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const ID = /^[1-9][0-9]{0,11}$/;

/** The filters as the form shows them again (only the ones that were understood). */
interface AuditForm {
  readonly action: string;
  readonly person: string;
  readonly group: string;
  readonly outcome: string;
  readonly from: string;
  readonly to: string;
}

/** The `/admin/audit` routes. */
export function registerAdminAuditPages(app: FastifyInstance, web: WebContext): void {
  registerAdminPage(app, web, "/admin/audit", {
    async GET(page) {
      const { form, query } = readFilters(page.query);
      const before = queryValue(page.query, "before") ?? "";
      const result = await readAuditPage(web, page.by, {
        ...query,
        ...(ID.test(before) ? { beforeId: Number(before) } : {}),
      });
      const href = (extra: Record<string, string | number | undefined>) =>
        page.chrome.u(withQuery("/admin/audit", { ...form, ...extra }));
      return renderAdmin(page, "admin-audit", "audit", {
        form,
        actions: AUDIT_ACTIONS,
        rows: result.rows,
        nextHref: result.nextBefore === undefined ? undefined : href({ before: result.nextBefore }),
        firstHref: ID.test(before) ? href({}) : undefined,
        csvHref: page.chrome.u(withQuery("/admin/audit/export", { ...form, format: "csv" })),
        jsonlHref: page.chrome.u(withQuery("/admin/audit/export", { ...form, format: "jsonl" })),
      });
    },
  });
  registerAdminPage(app, web, "/admin/audit/export", {
    async GET(page) {
      const jsonl = queryValue(page.query, "format") === "jsonl";
      const rows = await readAuditExport(web, page.by, readFilters(page.query).query);
      return page.reply
        .header("content-type", jsonl ? "application/jsonl; charset=utf-8" : "text/csv; charset=utf-8")
        .header("content-disposition", contentDisposition(jsonl ? "audit.jsonl" : "audit.csv"))
        .header("cache-control", "no-store")
        .header("x-content-type-options", "nosniff")
        .send(jsonl ? auditJsonLines(rows) : auditCsv(rows));
    },
  });
}

/** The filters of a request: what the store is asked, and what the form shows again. */
function readFilters(values: QueryValues): { form: AuditForm; query: AuditQuery } {
  const text = (name: string, max: number) => (queryValue(values, name) ?? "").trim().slice(0, max);
  const action = text("action", 40);
  const person = text("person", 254);
  const group = parsePair(text("group", 40));
  const outcome = text("outcome", 10);
  const from = dayStart(text("from", 10));
  const to = dayStart(text("to", 10));
  const form: AuditForm = {
    action: isAuditAction(action) ? action : "",
    person,
    group: group === undefined ? "" : formatPair(group),
    outcome: outcome === "done" || outcome === "refused" ? outcome : "",
    from: from === undefined ? "" : text("from", 10),
    to: to === undefined ? "" : text("to", 10),
  };
  const query: AuditQuery = {
    ...(isAuditAction(action) ? { actions: [action] } : {}),
    ...(person === "" ? {} : { personEmail: person }),
    ...(group === undefined ? {} : { groupId: group }),
    ...(outcome === "done" || outcome === "refused" ? { outcome } : {}),
    ...(from === undefined ? {} : { since: from }),
    // The last day is included whole.
    ...(to === undefined ? {} : { until: to + DAY_MS }),
  };
  return { form, query };
}

/** Midnight UTC of a `YYYY-MM-DD` date; undefined for anything else. */
function dayStart(value: string): number | undefined {
  const match = DATE.exec(value);
  if (!match) return undefined;
  const at = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(at).toISOString().slice(0, 10) === value ? at : undefined;
}
