// The applications (OAuth consumers) in the administration (`/admin/apps`): the list, a new one
// (its key and secret shown once), and one application's access level, legacy-signing mark, a new
// secret (shown once) and the revocation of every token issued through it. The writes are the
// command line's (services/oauth/app-admin.ts), acting as the administrator.
import type { FastifyInstance } from "fastify";
import { generateSecret } from "../../auth/token.js";
import { ACCESS_LEVELS, isAccessLevel } from "../../domain/access.js";
import { ValidationError } from "../../domain/errors.js";
import { checkNameCharacters } from "../../domain/text.js";
import {
  createApplicationAsOperator,
  revokeApplicationTokens,
  rotateApplicationSecret,
  updateApplicationAsOperator,
} from "../../services/oauth/app-admin.js";
import { listApplications, readApplication } from "../../services/oauth/app-directory.js";
import { queryValue } from "../../http-kit/query.js";
import { errorText } from "../i18n/i18n.js";
import { type WebContext, pageNotFound } from "../page.js";
import { type AdminPageRequest, registerAdminPage, renderAdmin } from "./admin-guard.js";

const ID = /^[1-9][0-9]{0,11}$/;
const NAME_MAX = 200;

/** The `/admin/apps` routes. */
export function registerAdminAppPages(app: FastifyInstance, web: WebContext): void {
  registerAdminPage(app, web, "/admin/apps", {
    GET: async (page) => renderAdmin(page, "admin-apps", "apps", { apps: await listApplications(web, page.by) }),
  });
  registerAdminPage(
    app,
    web,
    "/admin/apps/new",
    {
      GET: async (page) => newAppForm(page, { name: "", level: "read", legacy: false }),
      async POST(page) {
        const values = {
          name: (page.form.get("name") ?? "").trim(),
          level: page.form.get("level") ?? "",
          legacy: page.form.get("legacy") === "on",
        };
        try {
          if (values.name === "" || [...values.name].length > NAME_MAX)
            throw new ValidationError("APPLICATION_NAME_INVALID", `The name must be 1 to ${NAME_MAX} characters.`);
          checkNameCharacters(values.name, "APPLICATION_NAME_INVALID", "The application's name");
          if (!isAccessLevel(values.level))
            throw new ValidationError("ACCESS_LEVEL_INVALID", `The level must be one of ${ACCESS_LEVELS.join(", ")}.`);
          const input = {
            name: values.name,
            consumerKey: generateSecret(),
            consumerSecret: generateSecret(),
            accessLevel: values.level,
            legacySigning: values.legacy,
          };
          const created = await createApplicationAsOperator(web, input, page.by);
          if (!created) throw new Error("a new random consumer key was taken");
          return secretPage(page, created.id, input.name, input.consumerKey, input.consumerSecret);
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          return newAppForm(page, values, errorText(page.chrome.lang, error.code, error.message));
        }
      },
    },
    "application.create",
  );
  registerAdminPage(app, web, "/admin/apps/:app", {
    async GET(page) {
      const done = queryValue(page.query, "done");
      return renderAdmin(page, "admin-app", "apps", {
        application: await readApplication(web, page.by, appId(page)),
        levels: ACCESS_LEVELS,
        done: done === "saved" || done === "revoked" ? done : undefined,
        revoked: Number(queryValue(page.query, "n") ?? "0") || 0,
      });
    },
  });
  registerAdminPage(
    app,
    web,
    "/admin/apps/:app/update",
    {
      async POST(page) {
        const application = await readApplication(web, page.by, appId(page));
        const level = page.form.get("level") ?? "";
        await updateApplicationAsOperator(
          web,
          {
            consumerKey: application.consumerKey,
            legacySigning: page.form.get("legacy") === "on",
            ...(isAccessLevel(level) ? { accessLevel: level } : {}),
          },
          page.by,
        );
        return page.redirect(`/admin/apps/${application.id}?done=saved`);
      },
    },
    "application.update",
  );
  registerAdminPage(
    app,
    web,
    "/admin/apps/:app/rotate",
    {
      async POST(page) {
        const application = await readApplication(web, page.by, appId(page));
        const secret = await rotateApplicationSecret(web, { consumerKey: application.consumerKey }, page.by);
        if (secret === undefined) throw pageNotFound();
        return secretPage(page, application.id, application.name, application.consumerKey, secret);
      },
    },
    "application.secret.rotate",
  );
  registerAdminPage(
    app,
    web,
    "/admin/apps/:app/revoke-tokens",
    {
      async POST(page) {
        const application = await readApplication(web, page.by, appId(page));
        const revoked = await revokeApplicationTokens(web, { consumerKey: application.consumerKey }, page.by);
        return page.redirect(`/admin/apps/${application.id}?done=revoked&n=${revoked ?? 0}`);
      },
    },
    "application.tokens.revoke",
  );
}

function appId(page: AdminPageRequest): number {
  const text = page.params.app ?? "";
  if (!ID.test(text)) throw pageNotFound();
  return Number(text);
}

/** The key and secret, shown in the answer to the POST only (nothing can show the secret again). */
function secretPage(page: AdminPageRequest, id: number, name: string, key: string, secret: string) {
  return renderAdmin(page, "admin-app-secret", "apps", { id, name, key, secret });
}

function newAppForm(page: AdminPageRequest, values: { name: string; level: string; legacy: boolean }, error?: string) {
  return renderAdmin(
    page,
    "admin-app-new",
    "apps",
    { values, levels: ACCESS_LEVELS, error },
    error === undefined ? 200 : 400,
  );
}
