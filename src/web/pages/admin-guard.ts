// The guard and the frame of every administration page (`/admin/...`): every address there is
// registered through registerAdminPage, so none can be added without the guard; the services
// check the role again inside each act's transaction.
import type { FastifyInstance } from "fastify";
import type { AuditAction } from "../../domain/audit.js";
import { requireSiteAdmin } from "../../domain/site-admin.js";
import { recordRefusal } from "../../services/audit/audit-log.js";
import { type Administrator, administratorOf } from "../../services/account/site-admin.js";
import type { MessageKey } from "../i18n/en.js";
import { type PageOptions, type PageRequest, type WebContext, registerPage } from "../page.js";

/** An administration page's request: the page, and the administrator acting in it. */
export interface AdminPageRequest extends PageRequest {
  readonly by: Administrator;
}

type AdminHandler = (page: AdminPageRequest) => Promise<ReturnType<PageRequest["render"]>>;

/** The sections of the administration, in the order of its navigation. */
export const ADMIN_SECTIONS: readonly { readonly key: string; readonly path: string; readonly label: MessageKey }[] = [
  { key: "users", path: "/admin/users", label: "admin.nav.users" },
  { key: "groups", path: "/admin/groups", label: "admin.nav.groups" },
  { key: "apps", path: "/admin/apps", label: "admin.nav.apps" },
  { key: "import", path: "/admin/import", label: "admin.nav.import" },
  { key: "settings", path: "/admin/settings", label: "admin.nav.settings" },
  { key: "audit", path: "/admin/audit", label: "admin.nav.audit" },
  { key: "status", path: "/admin/status", label: "admin.nav.status" },
];

/**
 * Registers an administration page: signed out, the sign-in page (as every page); signed in
 * without the role, 403 ADMIN_REQUIRED, and a form sent so writes a `refused` row for `action`.
 */
export function registerAdminPage(
  app: FastifyInstance,
  web: WebContext,
  path: string,
  handlers: { GET?: AdminHandler; POST?: AdminHandler },
  action?: AuditAction,
  options: Pick<PageOptions, "multipart"> = {},
): void {
  const guard =
    (method: "GET" | "POST", handler: AdminHandler) =>
    async (page: PageRequest): Promise<ReturnType<PageRequest["render"]>> => {
      const by = administratorOf(page.actor, web.clientAddress(page.request));
      if (!page.session.siteAdmin) {
        if (method === "POST" && action !== undefined)
          await recordRefusal(web, { action, actor: by.audit, details: { code: "ADMIN_REQUIRED", path } });
        requireSiteAdmin(false);
      }
      return handler({ ...page, by });
    };
  registerPage(
    app,
    web,
    path,
    {
      ...(handlers.GET ? { GET: guard("GET", handlers.GET) } : {}),
      ...(handlers.POST ? { POST: guard("POST", handlers.POST) } : {}),
    },
    options,
  );
}

/** Renders an administration template with the section's navigation. */
export function renderAdmin(page: AdminPageRequest, template: string, section: string, data: object, status = 200) {
  const heading = ADMIN_SECTIONS.find((s) => s.key === section)?.label;
  return page.render(
    template,
    {
      section: "admin",
      adminSection: section,
      adminSections: ADMIN_SECTIONS,
      title: `${heading ? `${page.chrome.t(heading)} · ` : ""}${page.chrome.t("nav.admin")}`,
      ...data,
    },
    status,
  );
}
