// The signed-in person's favorites (`/favorites`), newest first.
import type { FastifyInstance } from "fastify";
import { listFavorites } from "../../services/item/reaction.js";
import type { ItemView } from "../../services/item/item.js";
import type { Chrome } from "../chrome.js";
import { type WebContext, registerPage } from "../page.js";
import { paged, readPageNumber, withQuery } from "../paging.js";
import { itemPath } from "./item-view.js";

const SUMMARY_CHARS = 140;

/** `/favorites`. */
export function registerFavoritesPage(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/favorites", {
    async GET(page) {
      const request = readPageNumber(page.query);
      const items = await listFavorites(web, page.actor, { page: request.fetch });
      return page.render("favorites", {
        title: page.chrome.t("favorites.title"),
        section: "favorites",
        feed: { title: page.chrome.t("favorites.title"), href: `${web.baseUrl()}/api/star/V2` },
        favorites: paged(
          items.map((item) => favoriteRow(page.chrome, item)),
          request,
          (n) => page.chrome.u(withQuery("/favorites", { page: n })),
        ),
      });
    },
  });
}

function favoriteRow(chrome: Chrome, item: ItemView) {
  const ref = item.ref;
  const href = ref.kind === "COMMENT" ? `${itemPath(ref.parent)}#comment-${ref.number}` : itemPath(ref);
  const chars = [...item.summary.replace(/\s+/g, " ").trim()];
  return {
    title: ref.kind === "COMMENT" ? chrome.t("favorites.comment", { title: item.title }) : item.title,
    href: chrome.u(href),
    groupName: item.group.name,
    summary: chars.length > SUMMARY_CHARS ? `${chars.slice(0, SUMMARY_CHARS).join("")}…` : chars.join(""),
    updatedAt: item.updatedAt,
  };
}
