// The chat endpoints' rows of the authorization matrix (docs/api.md "Chat"). A chat room belongs
// to its members, not to a group: to anyone else it does not exist (404 NOT_FOUND), and a room
// with people who share no group with the caller cannot be made (400 CHAT_MEMBER_INVALID). The
// "former member" caller is still in the secret room's member table (removed from the group below
// the services): every `room` row (read, post, delete, like, mute, messages, files) refuses them too.
import { formatCursor, roomScopeOwner } from "../../src/domain/changes.js";
import { CLIENT_NS } from "../support/http.js";
import type { MatrixWorld } from "./matrix-world.js";
import type { Operation, Probe } from "./operations.js";

const CHAT_NS = `${CLIENT_NS} xmlns:cblChat="http://schemas.cybozulive.com/chat/2010"`;
const q = (query: string): Probe => ({ query });
const feed = (inner: string): Probe => ({ body: `<feed ${CHAT_NS}>${inner}</feed>` });
const operation = (type: string) => `<cbl:operation type="${type}"/>`;

/** The secret room's id, written from the member's side (any side names it). */
function roomOf(w: MatrixWorld): string {
  return `MYPAGE,1:${w.member.id},MP_CHAT,1:${w.chat.roomId}`;
}

const secretWith = (w: MatrixWorld, suffix: string): string => w.secrets.find((s) => s.endsWith(suffix)) ?? suffix;

/** A message of the member's own to delete, for the proper caller; the owner's first message for everyone else. */
async function messageToDelete(w: MatrixWorld, proper: boolean): Promise<string> {
  if (!proper) return `${roomOf(w)},COMMENT,1`;
  const number = await w.server.store.transaction((tx) =>
    tx.chat.push(w.chat.roomId, w.member.id, "matrix fresh message", w.server.clock.now()),
  );
  return `${roomOf(w)},COMMENT,${number}`;
}

/** Rows per chat endpoint. */
export const CHAT_OPERATIONS: ReadonlyArray<readonly [string, readonly Operation[]]> = [
  [
    "/api/mpChat/V2",
    [
      {
        name: "my rooms",
        method: "GET",
        need: "read",
        scope: "own",
        probe: async () => q("chat-type=THEME"),
        shows: (w) => secretWith(w, " room"),
      },
      {
        name: "the secret room",
        method: "GET",
        need: "read",
        scope: "room",
        probe: async (w) => q(`id=${encodeURIComponent(roomOf(w))}`),
      },
      {
        name: "mute the secret room",
        method: "POST",
        need: "read",
        scope: "room",
        probe: async (w) =>
          feed(
            `${operation("update_setting")}<entry><id>${roomOf(w)}</id><cblChat:muted>false</cblChat:muted></entry>`,
          ),
      },
      {
        name: "rename the secret room (to its own title)",
        method: "POST",
        need: "write",
        scope: "room",
        probe: async (w) =>
          feed(`${operation("update")}<entry><id>${roomOf(w)}</id><title>${secretWith(w, " room")}</title></entry>`),
      },
      {
        name: "open a DIRECT room with the secret group's owner",
        method: "POST",
        need: "write",
        scope: "people",
        probe: async (w) =>
          feed(
            `${operation("insert")}<entry><cblChat:type>DIRECT</cblChat:type><cbl:who id="1:${w.owner.id}"/></entry>`,
          ),
      },
    ],
  ],
  [
    "/api/comet/mpChatPush/V2",
    [
      {
        name: "push into the secret room",
        method: "POST",
        need: "write",
        scope: "room",
        probe: async (w) =>
          feed(`${operation("insert")}<id>${roomOf(w)}</id><entry><summary type="text">matrix push</summary></entry>`),
      },
      {
        name: "delete a message of the secret room",
        method: "POST",
        need: "write",
        scope: "room",
        probe: async (w, proper) =>
          feed(`${operation("delete")}<entry><id>${await messageToDelete(w, proper)}</id></entry>`),
      },
    ],
  ],
];

/** Extra rows of shared endpoints: the secret room's messages and M_CHAT notifications. */
export const CHAT_COMMENT_OPERATIONS: readonly Operation[] = [
  {
    name: "the secret room's messages",
    method: "GET",
    need: "comments",
    scope: "room",
    probe: async (w) => q(`entry=${encodeURIComponent(roomOf(w))}`),
  },
  {
    name: "the secret room's messages changed since a cursor",
    method: "GET",
    need: "comments",
    scope: "room",
    probe: async (w) => {
      const cursor = formatCursor({
        kind: "MP_CHAT_COMMENT",
        groupId: roomScopeOwner(w.chat.roomId),
        parentId: w.chat.roomId,
        seq: 999_999_999_999,
      });
      return q(`entry=${encodeURIComponent(roomOf(w))}&changes-since=${cursor}`);
    },
  },
];

/**
 * M_CHAT notifications: the member sees the secret room (its title); others nothing. The latest
 * message's text needs `comments` (test/http/chat-access-level.test.ts), so at `read` the title is the proof.
 */
export const CHAT_NOTIFICATION_OPERATIONS: readonly Operation[] = [
  {
    name: "my chat notifications",
    method: "GET",
    need: "read",
    scope: "own",
    probe: async () => q("category=M_CHAT&include-rule-out=true"),
    shows: (w) => secretWith(w, " room"),
  },
  {
    name: "confirm the secret room",
    method: "POST",
    need: "read",
    scope: "own",
    probe: async (w) => ({ ...feed(`<entry><id>${roomOf(w)}</id></entry>`), query: "category=M_CHAT" }),
    shows: (w) => secretWith(w, " room"),
  },
];

/** Likes of the secret room's first message (the owner's): its members only. */
export const CHAT_LIKE_OPERATIONS: readonly Operation[] = [
  {
    name: "likers of the secret room's message",
    method: "GET",
    need: "read",
    scope: "room",
    probe: async (w) => q(`id=${encodeURIComponent(`${roomOf(w)},COMMENT,1`)}`),
  },
  ...(["insert", "delete"] as const).map((type): Operation => ({
    name: `${type === "insert" ? "like" : "unlike"} the secret room's message`,
    method: "POST",
    need: "read",
    scope: "room",
    probe: async (w) => feed(`${operation(type)}<entry><id>${roomOf(w)},COMMENT,1</id></entry>`),
  })),
];
