import type { ChatRoomType } from "../domain/chat.js";
import { formatChatMessageId, formatChatRoomId } from "../domain/item-id.js";
import { roomTitleFor } from "../present/chat.js";
import { type RoomView, listRooms, writeRoom } from "../services/chat/chat.js";
import { actorByEmail, userIdsByEmail } from "../services/chat/chat-admin.js";
import { pushMessage } from "../services/chat/chat-message.js";
import { type CommandGroup, type Values, commandGroup, optional, required } from "./admin.js";
import { UsageError } from "./options.js";
import { parseChatId } from "../domain/item-id.js";

function shown(action: string, viewerId: number, view: RoomView) {
  return {
    [action]: "chat room",
    id: formatChatRoomId(viewerId, view.room.id),
    type: view.room.type,
    title: roomTitleFor(view.room, view.members, viewerId),
    members: view.members.map((member) => member.name),
    latest: view.messages[0]?.body ?? null,
  };
}

function typeOption(values: Values): ChatRoomType {
  const text = (optional(values, "type") ?? "THEME").toUpperCase();
  if (text !== "THEME" && text !== "DIRECT")
    throw new UsageError(`--type must be THEME or DIRECT (got "${text.slice(0, 40)}")`);
  return text;
}

/** `--room MYPAGE,1:u,MP_CHAT,1:r`. @throws UsageError */
export function roomOption(values: Values): number {
  const text = required(values, "room");
  const ref = parseChatId(text);
  if (ref === undefined || ref.messageNumber !== undefined)
    throw new UsageError(`--room must be a room id such as MYPAGE,1:1,MP_CHAT,1:2 (got "${text.slice(0, 60)}")`);
  return ref.roomId;
}

/** `kairan chat room add|list`, `kairan chat say`. */
export const CHAT_COMMAND: CommandGroup = commandGroup("chat", "chat rooms and messages", {
  room: {
    summary: "add a room (add) or list a user's rooms (list)",
    usage: "add --creator EMAIL --member EMAIL[,EMAIL...] [--type THEME|DIRECT] [--title TEXT]  |  list --user EMAIL",
    positionals: 1,
    options: {
      creator: { type: "string" },
      member: { type: "string" },
      type: { type: "string" },
      title: { type: "string" },
      user: { type: "string" },
    },
    async run(values, positionals, context) {
      const [action] = positionals;
      if (action === "list") {
        const actor = await actorByEmail(context, required(values, "user"));
        const page = { offset: 0, limit: 100 };
        const rooms = [
          ...(await listRooms(context, actor, { roomId: null, type: "THEME", withUserId: null, page, messages: 1 })),
          ...(await listRooms(context, actor, { roomId: null, type: "DIRECT", withUserId: null, page, messages: 1 })),
        ];
        return rooms.map((view) => shown("listed", actor.user.id, view));
      }
      if (action !== "add")
        throw new UsageError(`kairan chat room takes add or list (got "${String(action).slice(0, 40)}")`);
      const actor = await actorByEmail(context, required(values, "creator"));
      const emails = required(values, "member")
        .split(",")
        .map((email) => email.trim())
        .filter(Boolean);
      const memberIds = await userIdsByEmail(context, emails);
      const input = { op: "create" as const, type: typeOption(values), title: optional(values, "title"), memberIds };
      return shown("added", actor.user.id, await writeRoom(context, actor, input));
    },
  },
  say: {
    summary: "write a message into a room as one of its members",
    usage: "--room ID --author EMAIL --text TEXT",
    options: { room: { type: "string" }, author: { type: "string" }, text: { type: "string" } },
    async run(values, _p, context) {
      const actor = await actorByEmail(context, required(values, "author"));
      const view = await pushMessage(context, actor, { roomId: roomOption(values), text: required(values, "text") });
      return {
        said: "chat message",
        id: formatChatMessageId(actor.user.id, view.room.id, view.message.number),
        text: view.message.body,
      };
    },
  },
});
