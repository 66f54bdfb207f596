// A group's incoming webhooks (`/g/1:n/hooks`, docs/api.md "Incoming webhooks"): its managers make
// one (its address shown once, on the answer to the form: never in a URL), see them and revoke them.
import type { FastifyInstance } from "fastify";
import { ValidationError } from "../../domain/errors.js";
import type { HookTarget, IncomingHook } from "../../domain/incoming-hook.js";
import { formatContentId, formatPair, parseItemId, parsePair } from "../../domain/item-id.js";
import { HOOK_LIMITS } from "../../domain/limits.js";
import { hookAddress } from "../../present/incoming-hook.js";
import { createHook, listHooks, removeHook } from "../../services/hook/incoming-hook.js";
import { errorText } from "../i18n/i18n.js";
import { type PageRequest, type WebContext, pathPair, registerPage } from "../page.js";
import { queryValue } from "../../http-kit/query.js";
import { roomOfKey } from "./chat-paths.js";

/** `/g/:group/hooks`. */
export function registerGroupHookPages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/g/:group/hooks", {
    GET: (page) => hooksPage(web, page, {}),
    async POST(page) {
      const groupId = pathPair(page, "group");
      try {
        if (page.form.get("change") === "remove") {
          const id = parsePair(page.form.get("id") ?? "");
          if (id === undefined) throw new ValidationError("INVALID_ID", "id must name a hook.");
          const hooks = await listHooks(web, page.actor, { kind: "group", groupId });
          // Only this group's hooks are revoked from its page.
          if (!hooks.some((hook) => hook.id === id)) throw new ValidationError("INVALID_ID", "id must name a hook.");
          await removeHook(web, page.actor, id);
          return page.redirect(`/g/${formatPair(groupId)}/hooks`);
        }
        const made = await createHook(web, page.actor, {
          target: targetOf(groupId, page.form.get("topic") ?? ""),
          name: page.form.get("name") ?? undefined,
        });
        return hooksPage(web, page, { created: hookAddress(web.baseUrl(), made.secret) });
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        return hooksPage(web, page, { error: errorText(page.chrome.lang, error.code, error.message) });
      }
    },
  });
}

/**
 * `/mpChat/hooks?chatRoomId=1%23n`: a chat room's incoming webhooks, for its members (linked from
 * the room's page). The same page as a group's, without the topic.
 */
export function registerRoomHookPages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/mpChat/hooks", {
    GET: (page) => roomHooksPage(web, page, {}),
    async POST(page) {
      const roomId = roomOfKey(page.form.get("chatRoomId") ?? undefined);
      try {
        if (page.form.get("change") === "remove") {
          const id = parsePair(page.form.get("id") ?? "");
          const hooks = await listHooks(web, page.actor, { kind: "chat", roomId });
          if (id === undefined || !hooks.some((hook) => hook.id === id))
            throw new ValidationError("INVALID_ID", "id must name a hook.");
          await removeHook(web, page.actor, id);
          return page.redirect(`/mpChat/hooks?chatRoomId=1%23${roomId}`);
        }
        const made = await createHook(web, page.actor, {
          target: { kind: "chat", roomId },
          name: page.form.get("name") ?? undefined,
        });
        return roomHooksPage(web, page, { created: hookAddress(web.baseUrl(), made.secret) }, roomId);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        const text = errorText(page.chrome.lang, error.code, error.message);
        return roomHooksPage(web, page, { error: text }, roomId);
      }
    },
  });
}

async function roomHooksPage(
  web: WebContext,
  page: PageRequest,
  shown: { created?: string; error?: string },
  known?: number,
) {
  const roomId = known ?? roomOfKey(queryValue(page.query, "chatRoomId"));
  const hooks = await listHooks(web, page.actor, { kind: "chat", roomId });
  const { chrome } = page;
  return page.render(
    "group-hooks",
    {
      title: chrome.t("hooks.title"),
      heading: chrome.t("hooks.title"),
      action: chrome.u("/mpChat/hooks"),
      backHref: chrome.u(`/mpChat/view?chatRoomId=1%23${roomId}`),
      backLabel: chrome.t("hooks.backRoom"),
      roomKey: `1#${roomId}`,
      help: chrome.t("hooks.roomHelp"),
      maxChars: HOOK_LIMITS.nameMaxChars,
      hooks: hooks.map((hook) => ({
        id: formatPair(hook.id),
        name: hook.name,
        posts: chrome.t("hooks.posts.chat"),
        madeBy: chrome.t("hooks.madeBy", { name: hook.creatorName }),
      })),
      created: shown.created,
      error: shown.error,
    },
    shown.error === undefined ? 200 : 400,
  );
}

/** No topic: new topics; a topic id of this group: comments on it. @throws ValidationError INVALID_ID */
function targetOf(groupId: number, topic: string): HookTarget {
  if (topic.trim() === "") return { kind: "topic", groupId };
  const ref = parseItemId(topic.trim());
  if (ref?.kind !== "BOARD" || ref.groupId !== groupId)
    throw new ValidationError("INVALID_ID", "The topic must be a topic id of this group, such as GROUP,1:1,BOARD,1:2.");
  return { kind: "comment", groupId, topicId: ref.id };
}

async function hooksPage(web: WebContext, page: PageRequest, shown: { created?: string; error?: string }) {
  const groupId = pathPair(page, "group");
  const hooks = await listHooks(web, page.actor, { kind: "group", groupId });
  const { chrome } = page;
  const groupPath = `/g/${formatPair(groupId)}`;
  const posts = (hook: IncomingHook) =>
    hook.target.kind === "comment"
      ? chrome.t("hooks.posts.comment", {
          topic: formatContentId({ kind: "BOARD", groupId, id: hook.target.topicId }),
        })
      : chrome.t("hooks.posts.topic");
  return page.render(
    "group-hooks",
    {
      title: chrome.t("hooks.title"),
      heading: chrome.t("hooks.title"),
      action: chrome.u(`${groupPath}/hooks`),
      backHref: chrome.u(`${groupPath}/members`),
      backLabel: chrome.t("hooks.back"),
      help: chrome.t("hooks.help"),
      maxChars: HOOK_LIMITS.nameMaxChars,
      hooks: hooks.map((hook) => ({
        id: formatPair(hook.id),
        name: hook.name,
        posts: posts(hook),
        madeBy: chrome.t("hooks.madeBy", { name: hook.creatorName }),
      })),
      created: shown.created,
      error: shown.error,
    },
    shown.error === undefined ? 200 : 400,
  );
}
