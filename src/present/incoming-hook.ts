import { formatChatMessageId, formatCommentId, formatContentId } from "../domain/item-id.js";
import type { HookPosted } from "../services/hook/incoming-hook.js";
import { chatRoomLinks } from "./chat.js";
import { commentLinks, contentLinks } from "../domain/item-links.js";

/** `{base_url}/hooks/<secret>`: a hook's address, shown once when it is made. */
export function hookAddress(baseUrl: string, secret: string): string {
  return `${baseUrl}/hooks/${secret}`;
}

/** The answer to a post (docs/api.md "Incoming webhooks"): what was made, its id as the API writes it, its page. */
export function hookPostedJson(baseUrl: string, posted: HookPosted): string {
  const answer = (kind: string, id: string, url: string) => JSON.stringify({ kind, id, url });
  switch (posted.kind) {
    case "topic": {
      const ref = { kind: "BOARD", groupId: posted.groupId, id: posted.topicId } as const;
      return answer("topic", formatContentId(ref), contentLinks(baseUrl, ref).alternate);
    }
    case "comment": {
      const parent = { kind: "BOARD", groupId: posted.groupId, id: posted.topicId } as const;
      return answer(
        "comment",
        formatCommentId(parent, posted.number),
        commentLinks(baseUrl, parent, posted.number).alternate,
      );
    }
    case "chat":
      return answer(
        "chat",
        formatChatMessageId(posted.viewerId, posted.roomId, posted.number),
        chatRoomLinks(baseUrl, posted.roomId).alternate,
      );
  }
}

/** A refusal as JSON: `{"error":{"code":...,"message":...}}`. */
export function hookErrorJson(code: string, message: string): string {
  return JSON.stringify({ error: { code, message } });
}
