// The managers' page of a group's event menus and facilities (`/g/1:n/events/lists`): add one,
// rename or remove one. Each button posts the same address with `list`, `change` and its fields.
import type { FastifyInstance } from "fastify";
import { ValidationError } from "../../domain/errors.js";
import { formatPair, parsePair } from "../../domain/item-id.js";
import type { NamedList } from "../../services/event/event-named.js";
import { type NamedChange, changeEventList, readEventLists } from "../../services/event/event-page.js";
import { errorText } from "../i18n/i18n.js";
import { type PageRequest, type WebContext, pathPair, registerPage } from "../page.js";

/** `/g/:group/events/lists`. */
export function registerEventListPages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/g/:group/events/lists", {
    GET: (page) => listsPage(web, page),
    async POST(page) {
      const groupId = pathPair(page, "group");
      try {
        await changeEventList(web, page.actor, { groupId, list: listOf(page.form), change: changeOf(page.form) });
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        return listsPage(web, page, errorText(page.chrome.lang, error.code, error.message));
      }
      return page.redirect(`/g/${formatPair(groupId)}/events/lists`);
    },
  });
}

/** @throws ValidationError INVALID_LIST */
function listOf(form: URLSearchParams): NamedList {
  const list = form.get("list");
  if (list === "menus") return "event_menus";
  if (list === "facilities") return "facilities";
  throw new ValidationError("INVALID_LIST", "list must be menus or facilities.");
}

/** @throws ValidationError INVALID_CHANGE, INVALID_ID */
function changeOf(form: URLSearchParams): NamedChange {
  const change = form.get("change");
  const name = form.get("name") ?? "";
  if (change === "add") return { kind: "add", name };
  const id = parsePair(form.get("id") ?? "");
  if (id === undefined) throw new ValidationError("INVALID_ID", "id must name a menu or facility.");
  if (change === "rename") return { kind: "rename", id, name };
  if (change === "remove") return { kind: "remove", id };
  throw new ValidationError("INVALID_CHANGE", "change must be add, rename or remove.");
}

async function listsPage(web: WebContext, page: PageRequest, error?: string) {
  const view = await readEventLists(web, page.actor, { groupId: pathPair(page, "group") });
  const { chrome } = page;
  const heading = chrome.t("eventLists.title");
  const items = (list: "menus" | "facilities", refs: readonly { id: number; name: string }[]) => ({
    list,
    heading: chrome.t(list === "menus" ? "eventLists.menus" : "eventLists.facilities"),
    items: refs.map((ref) => ({ id: formatPair(ref.id), key: String(ref.id), name: ref.name })),
  });
  return page.render(
    "event-lists",
    {
      title: `${heading} · ${view.group.name}`,
      heading,
      group: view.group,
      area: "events",
      action: chrome.u(`/g/${formatPair(view.group.id)}/events/lists`),
      calendarHref: chrome.u(`/g/${formatPair(view.group.id)}/events`),
      lists: [items("menus", view.menus), items("facilities", view.facilities)],
      error,
    },
    error === undefined ? 200 : 400,
  );
}
