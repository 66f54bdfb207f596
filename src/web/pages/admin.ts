// The site's administration in the browser (`/admin`): its home and its sections.
import type { FastifyInstance } from "fastify";
import type { WebContext } from "../page.js";
import { registerAdminAppPages } from "./admin-apps.js";
import { registerAdminAuditPages } from "./admin-audit.js";
import { registerAdminGroupPages } from "./admin-groups.js";
import { registerAdminImportPages } from "./admin-import.js";
import { registerAdminStatusPages } from "./admin-status.js";
import { registerAdminPage, renderAdmin } from "./admin-guard.js";
import { registerAdminSettingsPages } from "./admin-settings.js";
import { registerAdminUserPages } from "./admin-users.js";

/** Every `/admin` page. */
export function registerAdminPages(app: FastifyInstance, web: WebContext): void {
  registerAdminPage(app, web, "/admin", {
    GET: async (page) => renderAdmin(page, "admin-home", "home", {}),
  });
  registerAdminUserPages(app, web);
  registerAdminGroupPages(app, web);
  registerAdminAppPages(app, web);
  registerAdminImportPages(app, web);
  registerAdminSettingsPages(app, web);
  registerAdminAuditPages(app, web);
  registerAdminStatusPages(app, web);
}
