// What people do on a topic, task or file page: like, favorite, comment (with files), and the
// same on each comment, whose author also edits its text. Every action posts a form and returns to the item's page.
import type { FastifyInstance } from "fastify";
import { ValidationError } from "../../domain/errors.js";
import type { ContentKind, ContentRef, ItemRef } from "../../domain/item-id.js";
import { CONTENT_KINDS, KINDS } from "../../domain/kinds.js";
import { receiveFilesForm } from "../files-form.js";
import { refuseNonXmlCharacters } from "../../http-kit/form.js";
import { addComment, deleteComment, editComment } from "../../services/comment/comment.js";
import { setFavorite, setLike } from "../../services/item/reaction.js";
import { type PageRequest, type WebContext, pageNotFound, pathPair, registerPage, requireCsrf } from "../page.js";
import { itemPath } from "./item-view.js";

/** The item pages and the name of their id segment. */
const AREAS: readonly { kind: ContentKind; path: string }[] = CONTENT_KINDS.map((kind) => ({
  kind,
  path: `/g/:group/${KINDS[kind].area}/:item`,
}));

const COMMENT_TEXT_PARTS: ReadonlySet<string> = new Set(["_csrf", "text", "replyTo"]);

/** Likes, favorites and comments of every item page. */
export function registerItemActions(app: FastifyInstance, web: WebContext): void {
  for (const area of AREAS) {
    const parent = (page: PageRequest): ContentRef => ({
      kind: area.kind,
      groupId: pathPair(page, "group"),
      id: pathPair(page, "item"),
    });
    const comment = (page: PageRequest): ItemRef => ({
      kind: "COMMENT",
      parent: parent(page),
      number: commentNumber(page),
    });
    registerPage(app, web, `${area.path}/like`, { POST: (page) => react(web, page, parent(page), "like") });
    registerPage(app, web, `${area.path}/favorite`, { POST: (page) => react(web, page, parent(page), "favorite") });
    registerPage(app, web, `${area.path}/comments/:number/like`, {
      POST: (page) => react(web, page, comment(page), "like"),
    });
    registerPage(app, web, `${area.path}/comments/:number/favorite`, {
      POST: (page) => react(web, page, comment(page), "favorite"),
    });
    registerPage(app, web, `${area.path}/comments/:number/edit`, {
      async POST(page) {
        const ref = parent(page);
        const number = commentNumber(page);
        await editComment(web, page.actor, { parent: ref, number, text: page.form.get("text") ?? undefined });
        return page.redirect(`${itemPath(ref)}#comment-${number}`);
      },
    });
    registerPage(app, web, `${area.path}/comments/:number/delete`, {
      async POST(page) {
        const ref = parent(page);
        await deleteComment(web, page.actor, { parent: ref, number: commentNumber(page) });
        return page.redirect(`${itemPath(ref)}#comments`);
      },
    });
    registerPage(
      app,
      web,
      `${area.path}/comments`,
      { POST: (page) => postComment(web, page, parent(page)) },
      { multipart: true },
    );
  }
}

function commentNumber(page: PageRequest): number {
  const text = page.params.number ?? "";
  if (!/^[1-9][0-9]{0,14}$/.test(text)) throw pageNotFound();
  return Number(text);
}

async function react(web: WebContext, page: PageRequest, ref: ItemRef, what: "like" | "favorite") {
  const on = page.form.get("on") === "true";
  const input = { ref, on };
  if (what === "like") await setLike(web, page.actor, input);
  else await setFavorite(web, page.actor, input);
  if (ref.kind === "COMMENT") return page.redirect(`${itemPath(ref.parent)}#comment-${ref.number}`);
  return page.redirect(itemPath(ref as ContentRef));
}

/**
 * The comment form: multipart with `_csrf` first, `text`, `replyTo` and up to 10 `files`; the
 * token is checked before the first file is stored. Without files a plain form works too.
 */
async function postComment(web: WebContext, page: PageRequest, parent: ContentRef) {
  const csrf = page.session.csrf;
  const received = await receiveFilesForm(web, page, COMMENT_TEXT_PARTS);
  try {
    requireCsrf(received.text.get("_csrf"), csrf);
    refuseNonXmlCharacters(received.text);
    const view = await addComment(web, page.actor, {
      parent,
      text: received.text.get("text"),
      replyTo: replyTo(received.text.get("replyTo")),
      files: received.files,
    });
    return page.redirect(`${itemPath(parent)}#comment-${view.comment.number}`);
  } finally {
    await received.discard();
  }
}

function replyTo(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  if (!/^[1-9][0-9]{0,14}$/.test(text.trim()))
    throw new ValidationError("INVALID_REPLY_TO", "The comment to reply to must be a comment number.");
  return Number(text.trim());
}
