import { loadConfig } from "../config/config.js";
import type { HookTarget, IncomingHook } from "../domain/incoming-hook.js";
import { formatChatRoomId, formatContentId, formatGroupId, formatPair, parsePair } from "../domain/item-id.js";
import { hookAddress } from "../present/incoming-hook.js";
import { actorByEmail } from "../services/chat/chat-admin.js";
import { createHook, listHooksAsOperator, removeHookAsOperator } from "../services/hook/incoming-hook.js";
import { type CommandGroup, type Values, commandGroup, groupOption, itemOption, optional, required } from "./admin.js";
import { configFlags } from "./options.js";
import { UsageError } from "./options.js";
import { roomOption } from "./chat.js";

/** What a hook is, as the commands print it (never its secret, which only `add` prints, once). */
function shown(hook: IncomingHook) {
  const { target } = hook;
  return {
    id: formatPair(hook.id),
    name: hook.name,
    creator: hook.creatorName,
    posts:
      target.kind === "chat"
        ? { chatRoom: formatChatRoomId(hook.creatorId, target.roomId) }
        : target.kind === "comment"
          ? { commentsOn: formatContentId({ kind: "BOARD", groupId: target.groupId, id: target.topicId }) }
          : { topicsIn: formatGroupId(target.groupId) },
    created: new Date(hook.createdAt).toISOString(),
  };
}

/** Exactly one of --group (with --topic optionally) and --room. @throws UsageError */
function targetOption(values: Values): HookTarget {
  const room = optional(values, "room");
  const topic = optional(values, "topic");
  if (room !== undefined) {
    if (optional(values, "group") !== undefined || topic !== undefined)
      throw new UsageError("--room does not go with --group or --topic (a hook posts into one place)");
    return { kind: "chat", roomId: roomOption(values) };
  }
  if (topic !== undefined) {
    const ref = itemOption(values, "topic", "BOARD");
    if (optional(values, "group") !== undefined && groupOption(values) !== ref.groupId)
      throw new UsageError("--topic is not a topic of --group");
    return { kind: "comment", groupId: ref.groupId, topicId: ref.id };
  }
  if (optional(values, "group") === undefined) throw new UsageError("--group (or --room) is required");
  return { kind: "topic", groupId: groupOption(values) };
}

/** `--hook 1:5`. @throws UsageError */
function hookOption(values: Values): number {
  const text = required(values, "hook");
  const id = parsePair(text);
  if (id === undefined) throw new UsageError(`--hook must be a hook id such as 1:5 (got "${text.slice(0, 40)}")`);
  return id;
}

const PLACE = { group: { type: "string" }, topic: { type: "string" }, room: { type: "string" } } as const;

/** `kairan hook add|list|remove`: incoming webhooks (docs/api.md "Incoming webhooks"). */
export const HOOK_COMMAND: CommandGroup = commandGroup("hook", "make, list and revoke incoming webhooks", {
  add: {
    summary: "make a hook that posts new topics (--group), comments on a topic (--topic) or chat messages (--room)",
    usage: "(--group ID | --topic ID | --room ID) --name NAME --creator EMAIL",
    uses: "links",
    options: { ...PLACE, name: { type: "string" }, creator: { type: "string" } },
    async run(values, _p, context, io) {
      const target = targetOption(values);
      const actor = await actorByEmail(context, required(values, "creator"));
      const made = await createHook(context, actor, { target, name: required(values, "name") });
      const config = loadConfig(configFlags(values), io.env);
      const base = config.publicUrl ?? `http://${config.host}:${config.port}`;
      // The address holds the secret: printed this once, never stored.
      return { added: "hook", ...shown(made.hook), address: hookAddress(base, made.secret) };
    },
  },
  list: {
    summary: "list the hooks of a group (--group) or a chat room (--room)",
    usage: "--group ID | --room ID",
    options: { group: { type: "string" }, room: { type: "string" } },
    async run(values, _p, context) {
      const place =
        optional(values, "room") !== undefined
          ? ({ kind: "chat", roomId: roomOption(values) } as const)
          : ({ kind: "group", groupId: groupOption(values) } as const);
      return (await listHooksAsOperator(context, place)).map(shown);
    },
  },
  remove: {
    summary: "revoke a hook: its address answers 404 from now on",
    usage: "--hook ID",
    options: { hook: { type: "string" } },
    async run(values, _p, context) {
      return { removed: "hook", ...shown(await removeHookAsOperator(context, hookOption(values))) };
    },
  },
});
