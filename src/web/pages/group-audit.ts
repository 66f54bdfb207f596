// A group's part of the audit log (`/g/1:n/audit`), for its managers: who did what to the group
// and its members, from where, newest first, a page at a time (`?before=<row id>`).
import type { FastifyInstance } from "fastify";
import { ValidationError } from "../../domain/errors.js";
import { formatPair } from "../../domain/item-id.js";
import { queryValue } from "../../http-kit/query.js";
import { withQuery } from "../paging.js";
import { listGroupAudit } from "../../services/audit/group-audit.js";
import type { AuditEventRow } from "../../store/queries/audit-events.js";
import { type PageRequest, type WebContext, pathPair, registerPage } from "../page.js";

/** `/g/:group/audit`. */
export function registerGroupAuditPage(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/g/:group/audit", {
    async GET(page) {
      const groupId = pathPair(page, "group");
      const view = await listGroupAudit(web, page.actor, { groupId, beforeId: beforeOf(page) });
      const path = `/g/${formatPair(groupId)}/audit`;
      return page.render("group-audit", {
        title: `${page.chrome.t("groupAudit.title")} · ${view.group.name}`,
        group: view.group,
        rows: view.rows.map(rowView),
        firstPage: beforeOf(page) === undefined,
        newestHref: page.chrome.u(path),
        olderHref:
          view.olderBefore === undefined
            ? undefined
            : page.chrome.u(withQuery(path, { before: String(view.olderBefore) })),
        membersHref: page.chrome.u(`/g/${formatPair(groupId)}/members`),
      });
    },
  });
}

/** `?before=`: a row id, or nothing. @throws ValidationError INVALID_BEFORE */
function beforeOf(page: PageRequest): number | undefined {
  const text = queryValue(page.query, "before");
  if (text === undefined || text === "") return undefined;
  if (!/^[1-9][0-9]{0,14}$/.test(text))
    throw new ValidationError("INVALID_BEFORE", "before must be the id of a row of the log.");
  return Number(text);
}

function rowView(row: AuditEventRow) {
  const details = row.details === "{}" ? "" : row.details;
  return {
    at: Number(row.created_at),
    action: row.action,
    refused: row.outcome === "refused",
    actor: row.actor_label,
    address: row.address ?? "",
    target: row.target_label ?? "",
    details,
  };
}
