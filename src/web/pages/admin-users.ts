// The accounts in the administration (`/admin/users`): the list (search, paging by id), a new
// account (with a password, or with a link to set one: mailed when mail goes out by SMTP, else
// shown once to the administrator), and one account's acts: disable or enable, sign out
// everywhere, a password reset link, the administrator's role, requiring two-factor sign-in, and
// deletion.
import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { AuditAction } from "../../domain/audit.js";
import { ValidationError } from "../../domain/errors.js";
import { formatPair } from "../../domain/item-id.js";
import { setUserDisabled } from "../../services/account/account-admin.js";
import { resetPasswordAsOperator } from "../../services/account/password-reset.js";
import { deleteUser, setSiteAdmin, signOutEverywhere } from "../../services/account/site-admin.js";
import { listUserDirectory, readDirectoryUser } from "../../services/account/user-directory.js";
import { createUserAsOperator } from "../../services/account/user-admin.js";
import { readMailRelay } from "../../services/settings/mail-relay.js";
import { setTwoFactorRequired, twoFactorStatus } from "../../services/two-factor/status.js";
import { queryValue } from "../../http-kit/query.js";
import { errorText } from "../i18n/i18n.js";
import { type WebContext, pathPair } from "../page.js";
import { type AdminPageRequest, registerAdminPage, renderAdmin } from "./admin-guard.js";
import { adminListLinks, readAdminListQuery } from "./admin-list.js";

/** The `/admin/users` routes. */
export function registerAdminUserPages(app: FastifyInstance, web: WebContext): void {
  registerAdminPage(app, web, "/admin/users", {
    async GET(page) {
      const query = readAdminListQuery(page);
      const list = await listUserDirectory(web, page.by, query);
      return renderAdmin(page, "admin-users", "users", {
        text: query.text,
        users: list.users,
        ...adminListLinks(page, "/admin/users", query, list.nextAfter),
      });
    },
  });
  registerAdminPage(
    app,
    web,
    "/admin/users/new",
    {
      GET: async (page) => newUserForm(page, { name: "", email: "", admin: false }),
      async POST(page) {
        const values = {
          name: page.form.get("name") ?? "",
          email: (page.form.get("email") ?? "").trim(),
          admin: page.form.get("admin") === "on",
        };
        const typed = page.form.get("password") ?? "";
        try {
          const user = await createUserAsOperator(
            web,
            { ...values, password: typed || randomBytes(24).toString("base64url"), familyKana: "", givenKana: "" },
            page.by,
          );
          if (typed !== "") return page.redirect(`/admin/users/${formatPair(user.id)}?created=1`);
          return resetLinkPage(web, page, user.id, true);
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          return newUserForm(page, values, errorText(page.chrome.lang, error.code, error.message));
        }
      },
    },
    "user.create",
  );
  registerAdminPage(app, web, "/admin/users/:user", { GET: async (page) => userPage(web, page) });
  registerUserAct(app, web, "disable", "user.disable", (page, userId) =>
    setUserDisabled(web, { userId, disabled: true }, page.by),
  );
  registerUserAct(app, web, "enable", "user.enable", (page, userId) =>
    setUserDisabled(web, { userId, disabled: false }, page.by),
  );
  registerUserAct(app, web, "signout", "sign-out.everywhere", (page, userId) =>
    signOutEverywhere(web, page.by, { userId }),
  );
  registerUserAct(app, web, "grant-admin", "user.admin.grant", (page, userId) =>
    setSiteAdmin(web, page.by, { user: { userId }, admin: true }),
  );
  registerUserAct(app, web, "revoke-admin", "user.admin.revoke", (page, userId) =>
    setSiteAdmin(web, page.by, { user: { userId }, admin: false }),
  );
  // The same writer as `kairan user require-two-factor`; it writes the `user.update` row.
  registerUserAct(app, web, "require-two-factor", "user.update", (page, userId) =>
    setTwoFactorRequired(web, page.by.audit, userId, true),
  );
  registerUserAct(app, web, "unrequire-two-factor", "user.update", (page, userId) =>
    setTwoFactorRequired(web, page.by.audit, userId, false),
  );
  registerAdminPage(
    app,
    web,
    "/admin/users/:user/password-reset",
    { POST: async (page) => resetLinkPage(web, page, pathPair(page, "user"), false) },
    "password.reset",
  );
  registerAdminPage(
    app,
    web,
    "/admin/users/:user/delete",
    {
      async POST(page) {
        const userId = pathPair(page, "user");
        if (page.form.get("confirm") !== "on")
          return userPage(web, page, page.chrome.t("admin.users.deleteUnconfirmed"));
        return acting(web, page, userId, async () => {
          await deleteUser(web, page.by, { userId });
          return page.redirect("/admin/users?deleted=1");
        });
      },
    },
    "user.delete",
  );
}

/** One act on an account: a form without fields that comes back to the account's page. */
function registerUserAct(
  app: FastifyInstance,
  web: WebContext,
  name: string,
  action: AuditAction,
  act: (page: AdminPageRequest, userId: number) => Promise<unknown>,
): void {
  registerAdminPage(
    app,
    web,
    `/admin/users/:user/${name}`,
    {
      async POST(page) {
        const userId = pathPair(page, "user");
        return acting(web, page, userId, async () => {
          await act(page, userId);
          return page.redirect(`/admin/users/${formatPair(userId)}?done=${name}`);
        });
      },
    },
    action,
  );
}

/** Runs an act; a rule it breaks (the last administrator) shows the account's page with the problem. */
async function acting(
  web: WebContext,
  page: AdminPageRequest,
  userId: number,
  act: () => Promise<ReturnType<AdminPageRequest["redirect"]>>,
) {
  try {
    return await act();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return userPage(web, page, errorText(page.chrome.lang, error.code, error.message), userId);
  }
}

async function userPage(web: WebContext, page: AdminPageRequest, error?: string, id?: number) {
  const user = await readDirectoryUser(web, page.by, id ?? pathPair(page, "user"));
  const twoFactor = await twoFactorStatus(web, user.id);
  const done = queryValue(page.query, "done");
  return renderAdmin(
    page,
    "admin-user",
    "users",
    {
      account: user,
      twoFactor,
      error,
      created: queryValue(page.query, "created") === "1",
      done: done !== undefined && /^[a-z-]{1,24}$/.test(done) ? done : undefined,
    },
    error === undefined ? 200 : 400,
  );
}

/**
 * Issues a password link for the account: mailed when the server sends mail by SMTP, else shown
 * on this page once (the outbox folder reaches nobody).
 */
async function resetLinkPage(web: WebContext, page: AdminPageRequest, userId: number, created: boolean) {
  // Mailed only through a relay (saved in the settings or given as an option).
  const print = (await readMailRelay(web, web.config.mail)).smtpUrl === undefined;
  const reset = await resetPasswordAsOperator(web, { userId, print }, page.by);
  return renderAdmin(page, "admin-reset-link", "users", {
    account: reset.user,
    link: reset.link,
    expiresAt: reset.expiresAt,
    created,
  });
}

function newUserForm(page: AdminPageRequest, values: { name: string; email: string; admin: boolean }, error?: string) {
  return renderAdmin(page, "admin-user-new", "users", { values, error }, error === undefined ? 200 : 400);
}
