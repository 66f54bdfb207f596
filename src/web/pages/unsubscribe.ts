// One-click unsubscribe (RFC 8058) at `/unsubscribe/<signed token>`, for people who are not signed
// in: a POST turns off the kind of mail the link names (what mail providers send when one presses
// their "Unsubscribe", body `List-Unsubscribe=One-Click`, urlencoded or multipart); a GET only shows
// a page with a button that sends that POST, because link checkers and previews open links by GET.
import type { FastifyInstance } from "fastify";
import { readUnsubscribe, unsubscribe } from "../../services/mail-notify/unsubscribe.js";
import { type PublicPageRequest, type WebContext, registerPublicPage } from "../page.js";

/** `/unsubscribe/:token`. */
export function registerUnsubscribePages(app: FastifyInstance, web: WebContext): void {
  registerPublicPage(app, web, "/unsubscribe/:token", {
    async GET(page) {
      const view = await readUnsubscribe(web, tokenOf(page));
      return privately(page).render("unsubscribe", {
        title: page.chrome.t("unsubscribe.title"),
        view,
        done: false,
        action: page.chrome.u(page.chrome.path.split("?")[0] ?? ""),
      });
    },
    async POST(page) {
      const view = await unsubscribe(web, tokenOf(page));
      return privately(page).render("unsubscribe", { title: page.chrome.t("unsubscribe.title"), view, done: true });
    },
  });
}

function tokenOf(page: PublicPageRequest): string {
  return page.params.token ?? "";
}

/** The link is a credential: never kept by a cache, never sent on as a Referer. */
function privately(page: PublicPageRequest): PublicPageRequest {
  page.reply.header("cache-control", "no-store").header("referrer-policy", "no-referrer");
  return page;
}
