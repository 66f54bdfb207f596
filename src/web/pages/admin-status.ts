// The site's state in the administration (`/admin/status`), read-only: the version, the database
// and the stored files, the groups storing the most, the mail queue and the figures of /metrics.
import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { readSiteStatus } from "../../services/site-status.js";
import type { WebContext } from "../page.js";
import { registerAdminPage, renderAdmin } from "./admin-guard.js";

/** The `/admin/status` route. */
export function registerAdminStatusPages(app: FastifyInstance, web: WebContext): void {
  registerAdminPage(app, web, "/admin/status", {
    async GET(page) {
      const status = await readSiteStatus(web, page.by);
      return renderAdmin(page, "admin-status", "status", {
        version: serverVersion(),
        engine: web.config.store.kind,
        blobKind: web.config.blobStore.kind,
        status,
        metrics: web.metricFigures === undefined ? undefined : await web.metricFigures(),
      });
    },
  });
}

let version: string | undefined;

/** The server's version, from its package.json (two folders up from src/web/pages or dist/web/pages). */
function serverVersion(): string {
  version ??= (
    JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version?: string }
  ).version;
  return version ?? "";
}
