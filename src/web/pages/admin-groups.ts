// The groups in the administration (`/admin/groups`): the list (search, paging by id, member
// counts and last activity in one query), a new group with its first manager, and one group's
// acts: rename, managers, archive or restore, and deletion confirmed by typing the group's name.
import type { FastifyInstance } from "fastify";
import type { AuditAction } from "../../domain/audit.js";
import { DomainError } from "../../domain/errors.js";
import { formatPair, parsePair } from "../../domain/item-id.js";
import { LIMITS } from "../../domain/limits.js";
import { deleteGroup } from "../../services/group/group-delete.js";
import {
  createGroupAsAdmin,
  listAdminGroups,
  readAdminGroup,
  renameGroupAsAdmin,
  setGroupArchived,
  setManagerAsAdmin,
} from "../../services/group/group-admin.js";
import { queryValue } from "../../http-kit/query.js";
import { errorText } from "../i18n/i18n.js";
import { type WebContext, pathPair } from "../page.js";
import { withQuery } from "../paging.js";
import { type AdminPageRequest, registerAdminPage, renderAdmin } from "./admin-guard.js";
import { adminListLinks, readAdminListQuery } from "./admin-list.js";

/** The `/admin/groups` routes. */
export function registerAdminGroupPages(app: FastifyInstance, web: WebContext): void {
  registerAdminPage(app, web, "/admin/groups", {
    async GET(page) {
      const query = readAdminListQuery(page);
      const list = await listAdminGroups(web, page.by, query);
      const deleted = queryValue(page.query, "deleted");
      return renderAdmin(page, "admin-groups", "groups", {
        text: query.text,
        groups: list.groups,
        deleted: deleted === undefined ? undefined : deleted.slice(0, LIMITS.groupNameMaxChars),
        ...adminListLinks(page, "/admin/groups", query, list.nextAfter),
      });
    },
  });
  registerAdminPage(
    app,
    web,
    "/admin/groups/new",
    {
      GET: async (page) => newGroupForm(page, { name: "", summary: "", manager: "" }),
      async POST(page) {
        const values = {
          name: page.form.get("name") ?? "",
          summary: page.form.get("summary") ?? "",
          manager: (page.form.get("manager") ?? "").trim(),
        };
        try {
          const group = await createGroupAsAdmin(web, page.by, { ...values, managerEmail: values.manager });
          return page.redirect(`/admin/groups/${formatPair(group.id)}?done=created`);
        } catch (error) {
          if (!isRefusal(error)) throw error;
          return newGroupForm(page, values, errorText(page.chrome.lang, error.code, error.message));
        }
      },
    },
    "group.create",
  );
  registerAdminPage(app, web, "/admin/groups/:group", { GET: async (page) => groupPage(web, page) });
  registerGroupAct(app, web, "rename", "group.update", (page, groupId) =>
    renameGroupAsAdmin(web, page.by, { groupId, name: page.form.get("name") ?? "" }),
  );
  registerGroupAct(app, web, "manager", "member.role", (page, groupId) =>
    setManagerAsAdmin(web, page.by, {
      groupId,
      memberId: parsePair(page.form.get("member") ?? "") ?? 0,
      manager: page.form.get("role") === "manager",
    }),
  );
  registerGroupAct(app, web, "archive", "group.archive", (page, groupId) =>
    setGroupArchived(web, page.by, { groupId, archived: true }),
  );
  registerGroupAct(app, web, "restore", "group.restore", (page, groupId) =>
    setGroupArchived(web, page.by, { groupId, archived: false }),
  );
  registerAdminPage(
    app,
    web,
    "/admin/groups/:group/delete",
    {
      async POST(page) {
        const groupId = pathPair(page, "group");
        try {
          const { group } = await deleteGroup(web, page.by, { groupId, confirmName: page.form.get("confirm") ?? "" });
          return page.redirect(withQuery("/admin/groups", { deleted: group.name }));
        } catch (error) {
          if (!isRefusal(error) || error.code === "GROUP_NOT_FOUND") throw error;
          return groupPage(web, page, errorText(page.chrome.lang, error.code, error.message), groupId);
        }
      },
    },
    "group.delete",
  );
}

/** One act on a group: a form that comes back to the group's page. */
function registerGroupAct(
  app: FastifyInstance,
  web: WebContext,
  name: string,
  action: AuditAction,
  act: (page: AdminPageRequest, groupId: number) => Promise<unknown>,
): void {
  registerAdminPage(
    app,
    web,
    `/admin/groups/:group/${name}`,
    {
      async POST(page) {
        const groupId = pathPair(page, "group");
        try {
          await act(page, groupId);
          return page.redirect(`/admin/groups/${formatPair(groupId)}?done=${name}`);
        } catch (error) {
          // A missing group is the ordinary 404; a rule the act breaks shows on the group's page.
          if (!isRefusal(error) || error.code === "GROUP_NOT_FOUND") throw error;
          return groupPage(web, page, errorText(page.chrome.lang, error.code, error.message), groupId);
        }
      },
    },
    action,
  );
}

/** A rule or a state that refuses the act (shown on the page), not a fault. */
function isRefusal(error: unknown): error is DomainError {
  return error instanceof DomainError && ["invalid", "forbidden", "not_found"].includes(error.kind);
}

async function groupPage(web: WebContext, page: AdminPageRequest, error?: string, id?: number) {
  const view = await readAdminGroup(web, page.by, id ?? pathPair(page, "group"));
  const done = queryValue(page.query, "done");
  return renderAdmin(
    page,
    "admin-group",
    "groups",
    {
      view,
      error,
      nameMax: LIMITS.groupNameMaxChars,
      done: done !== undefined && /^[a-z-]{1,20}$/.test(done) ? done : undefined,
    },
    error === undefined ? 200 : 400,
  );
}

function newGroupForm(
  page: AdminPageRequest,
  values: { name: string; summary: string; manager: string },
  error?: string,
) {
  return renderAdmin(
    page,
    "admin-group-new",
    "groups",
    { values, error, nameMax: LIMITS.groupNameMaxChars, summaryMax: LIMITS.groupSummaryMaxChars },
    error === undefined ? 200 : 400,
  );
}
