import { element, utcTimestamp } from "../atom/build.js";
import { formatChatMessageId, formatPair } from "../domain/item-id.js";
import type { ChatLikersView } from "../services/chat/chat-like.js";
import { chatRoomLinks, roomTitleFor } from "./chat.js";
import {
  type Viewer,
  EMPTY_AUTHOR,
  categoryElements,
  feedDocument,
  itemEntry,
  titleElement,
  webLinkElements,
} from "./feed.js";
import type { ItemLinks } from "../domain/item-links.js";

function messageLinks(baseUrl: string, view: ChatLikersView): ItemLinks {
  const room = chatRoomLinks(baseUrl, view.room.id);
  const anchor = `#comment-${view.message.number}`;
  return { alternate: room.alternate + anchor, mobile: room.mobile + anchor };
}

/** `GET /api/good/V2?id=<message>`: the message's entry with the caller's like and one `cbl:who` per liker. */
export function chatLikersFeed(baseUrl: string, viewer: Viewer, view: ChatLikersView): string {
  const id = formatChatMessageId(viewer.id, view.room.id, view.message.number);
  const title = roomTitleFor(view.room, view.members, viewer.id);
  const links = messageLinks(baseUrl, view);
  const who = view.likers
    .map((liker) => element("cbl:who", { valueString: liker.name, id: formatPair(liker.userId) }))
    .join("");
  const entry = itemEntry(
    {
      id,
      title,
      links,
      terms: ["GOOD"],
      author: EMPTY_AUTHOR,
      updated: view.message.createdAt,
      summary: view.message.body,
    },
    element("cblGood:set", {}, String(view.mine)) + who,
  );
  return feedDocument({ title, id, alternate: links.alternate, viewer, updated: view.message.createdAt }, [entry]);
}

/** The answer to a like or unlike of a message: a feed with one entry holding its id, as for any item. */
export function chatLikeWriteFeed(baseUrl: string, viewer: Viewer, view: ChatLikersView, now: number): string {
  const id = formatChatMessageId(viewer.id, view.room.id, view.message.number);
  const title = roomTitleFor(view.room, view.members, viewer.id);
  const links = messageLinks(baseUrl, view);
  const entry =
    "<entry>" +
    element("id", {}, id) +
    titleElement(title) +
    webLinkElements(links) +
    categoryElements(id) +
    element("category", { term: "GOOD" }) +
    element("updated", {}, utcTimestamp(now)) +
    "</entry>";
  return feedDocument({ title, id, alternate: links.alternate, viewer, updated: now }, [entry]);
}
