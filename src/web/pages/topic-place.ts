// Filing a topic and its trash: move it to a folder (`.../1:m/move`), to the trash (`/trash`),
// back out (`/restore`), and delete it for good from the trash (`/delete`). Deleting in the browser
// is two steps, so a topic deleted by mistake can be restored; the API's delete is immediate.
import type { FastifyInstance } from "fastify";
import { ValidationError } from "../../domain/errors.js";
import { type ContentRef, formatPair } from "../../domain/item-id.js";
import { readFolderParameter } from "../../http-kit/parameters.js";
import { deleteTopic } from "../../services/topic/topic.js";
import { type TopicPlace, placeTopic } from "../../services/topic/topic-web.js";
import { type PageRequest, type WebContext, pathPair, registerPage } from "../page.js";
import { itemPath } from "./item-view.js";

/** The topic filing and trash routes. */
export function registerTopicPlacePages(app: FastifyInstance, web: WebContext): void {
  const moveTo = (place: (page: PageRequest) => TopicPlace) => async (page: PageRequest) => {
    const ref = topicRef(page);
    await placeTopic(web, page.actor, { ref, place: place(page) });
    return page.redirect(itemPath(ref));
  };
  registerPage(app, web, "/g/:group/board/:topic/move", {
    POST: moveTo((page) => readFolderPlace(page.form.get("folder") ?? undefined)),
  });
  registerPage(app, web, "/g/:group/board/:topic/trash", { POST: moveTo(() => ({ kind: "trash" })) });
  registerPage(app, web, "/g/:group/board/:topic/restore", { POST: moveTo(() => ({ kind: "restore" })) });
  registerPage(app, web, "/g/:group/board/:topic/delete", {
    async POST(page) {
      const ref = topicRef(page);
      await deleteTopic(web, page.actor, { ref, fromTrash: true });
      return page.redirect(`/g/${formatPair(ref.groupId)}/board?folder=TRASH`);
    },
  });
}

function topicRef(page: PageRequest): ContentRef {
  return { kind: "BOARD", groupId: pathPair(page, "group"), id: pathPair(page, "topic") };
}

/**
 * The folder field of a move form: a folder id, or UNCLASSIFIED for none.
 * @throws ValidationError INVALID_FOLDER
 */
export function readFolderPlace(
  value: string | undefined,
): { readonly kind: "folder"; readonly folderId: number } | { readonly kind: "unclassified" } {
  const place = readFolderParameter(value, "folder");
  if (place.kind === "folder" || place.kind === "unclassified") return place;
  throw new ValidationError("INVALID_FOLDER", "folder must be a folder id or UNCLASSIFIED.");
}
