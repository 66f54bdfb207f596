// Incoming webhooks (docs/api.md "Incoming webhooks"): a secret address that posts into a group
// (a new topic, or a comment on one topic) or into a chat room. A post is made as the hook's
// creator, through the same service functions the API and the web use (createTopic, addComment,
// pushMessage), so notifications, mentions, search, live events and mail follow as for any post,
// and every limit and error is the API's. The creator's access is checked again at every post.
import { type Actor, type Application, requireAccess } from "../../domain/access.js";
import { DomainError, ForbiddenError, NotFoundError, ValidationError } from "../../domain/errors.js";
import {
  type HookPost,
  type HookTarget,
  type IncomingHook,
  checkHookName,
  labelledText,
  topicTitleOf,
} from "../../domain/incoming-hook.js";
import { HOOK_LIMITS } from "../../domain/limits.js";
import { generateSecret, hashToken } from "../../auth/token.js";
import type { Tx } from "../../store/store.js";
import { requireRoom } from "../chat/chat.js";
import { pushMessage } from "../chat/chat-message.js";
import { addComment } from "../comment/comment.js";
import type { ServiceContext } from "../context.js";
import { requireGroupManager, requireGroupMember } from "../group/group-access.js";
import { createTopic, requireTopic } from "../topic/topic.js";

/**
 * The application a hook's post acts through: at the level that writes topics, comments and
 * messages (the API's `write`), so the level checks of those writes apply as for an API client.
 */
export const HOOK_APP: Application = Object.freeze({
  id: 0,
  name: "Kairan incoming webhook",
  consumerKey: "",
  accessLevel: "write",
});

/** A hook just made, with its secret: shown once, never stored (only its hash is). */
export interface CreatedHook {
  readonly hook: IncomingHook;
  readonly secret: string;
}

/** What a post made: a topic, a comment on the hook's topic, or a chat message. */
export type HookPosted =
  | { readonly kind: "topic"; readonly groupId: number; readonly topicId: number }
  | { readonly kind: "comment"; readonly groupId: number; readonly topicId: number; readonly number: number }
  | { readonly kind: "chat"; readonly viewerId: number; readonly roomId: number; readonly number: number };

/**
 * Makes a hook. A group's hooks are made by its managers (for a comment hook, on a topic of the
 * group); a chat room's by its members. At most 20 hooks per group or room.
 * @throws ValidationError HOOK_NAME_*, HOOK_LIMIT_REACHED; NotFoundError GROUP_NOT_FOUND, TOPIC_NOT_FOUND, NOT_FOUND (room)
 * @throws ForbiddenError GROUP_NOT_JOINED, MANAGER_REQUIRED, GROUP_ARCHIVED
 */
export async function createHook(
  ctx: ServiceContext,
  actor: Actor,
  input: { target: HookTarget; name: string | undefined },
): Promise<CreatedHook> {
  const name = checkHookName(input.name);
  const secret = generateSecret();
  const hook = await ctx.store.transaction(async (tx) => {
    const existing = await requireHookManager(tx, actor, input.target);
    if (existing.length >= HOOK_LIMITS.hooksPerTarget) {
      throw new ValidationError(
        "HOOK_LIMIT_REACHED",
        `There are ${existing.length} hooks here already; remove one first (at most ${HOOK_LIMITS.hooksPerTarget}).`,
      );
    }
    const at = ctx.clock.now();
    const id = await tx.incomingHooks.insert({
      secretHash: hashToken(secret),
      name,
      creatorId: actor.user.id,
      target: input.target,
      at,
    });
    return (await tx.incomingHooks.find(id)) as IncomingHook;
  });
  return { hook, secret };
}

/**
 * The hooks of a group (to its managers) or of a chat room (to its members), oldest first.
 * @throws as {@link createHook}'s access checks
 */
export async function listHooks(
  ctx: ServiceContext,
  actor: Actor,
  place: { kind: "group"; groupId: number } | { kind: "chat"; roomId: number },
): Promise<IncomingHook[]> {
  return ctx.store.read(async (tx) => {
    if (place.kind === "group") {
      await requireGroupManager(tx, actor, place.groupId);
      return tx.incomingHooks.listOfGroup(place.groupId);
    }
    await requireRoom(tx, actor.user.id, place.roomId);
    return tx.incomingHooks.listOfRoom(place.roomId);
  });
}

/**
 * Revokes a hook: its address answers 404 from now on. A group's managers and a room's members may.
 * @throws NotFoundError HOOK_NOT_FOUND; the access checks of {@link createHook}
 */
export async function removeHook(ctx: ServiceContext, actor: Actor, hookId: number): Promise<IncomingHook> {
  return ctx.store.transaction(async (tx) => {
    const hook = await tx.incomingHooks.find(hookId);
    if (hook === undefined) throw hookNotFound();
    await requireHookManager(tx, actor, hook.target);
    await tx.incomingHooks.remove(hook.id);
    return hook;
  });
}

/**
 * Posts through the hook whose secret this is: as its creator, read afresh, who must still be able
 * to post there (a member of the group, or of the room). Nothing is written when a check fails.
 * @throws NotFoundError HOOK_NOT_FOUND (no hook has this secret: unknown or revoked)
 * @throws ForbiddenError HOOK_CREATOR_NO_ACCESS (the creator's account is closed, or they left the group or room)
 * @throws everything createTopic, addComment and pushMessage throw (limits, a deleted topic, an archived group)
 */
export async function postThroughHook(ctx: ServiceContext, secret: string, post: HookPost): Promise<HookPosted> {
  const { hook, actor } = await ctx.store.read(async (tx) => {
    const found = await tx.incomingHooks.findBySecretHash(hashToken(secret));
    if (found === undefined) throw hookNotFound();
    return { hook: found, actor: await creatorOf(tx, found) };
  });
  requireAccess(actor, "write");
  const text = post.text.trim() === "" ? "" : labelledText(hook.name, post.text);
  const { target } = hook;
  switch (target.kind) {
    case "topic": {
      const view = await createTopic(ctx, actor, {
        groupId: target.groupId,
        title: topicTitleOf(post),
        body: labelledText(hook.name, post.text),
      });
      return { kind: "topic", groupId: target.groupId, topicId: view.topics[0]?.id ?? 0 };
    }
    case "comment": {
      const parent = { kind: "BOARD", groupId: target.groupId, id: target.topicId } as const;
      const withTitle = post.title === undefined ? text : labelledText(hook.name, `**${post.title}**\n${post.text}`);
      const view = await addComment(ctx, actor, { parent, text: withTitle, replyTo: undefined });
      return { kind: "comment", groupId: target.groupId, topicId: target.topicId, number: view.comment.number };
    }
    case "chat": {
      const withTitle = post.title === undefined ? text : labelledText(hook.name, `**${post.title}**\n${post.text}`);
      const view = await pushMessage(ctx, actor, { roomId: target.roomId, text: withTitle });
      return { kind: "chat", viewerId: actor.user.id, roomId: target.roomId, number: view.message.number };
    }
  }
}

/** The hook's creator as the actor of a post, checked: an open account that may still post to the target. */
async function creatorOf(tx: Tx, hook: IncomingHook): Promise<Actor> {
  const user = await tx.users.findById(hook.creatorId);
  if (user === undefined || (await tx.users.isDisabled(user.id)) !== false) throw creatorNoAccess(hook);
  const actor: Actor = { user: { id: user.id, name: user.name, email: user.email }, app: HOOK_APP };
  try {
    if (hook.target.kind === "chat") await requireRoom(tx, user.id, hook.target.roomId);
    else await requireGroupMember(tx, actor, hook.target.groupId);
  } catch (error) {
    // Not a member any more (or the room is gone to them): the hook's own refusal, which says why.
    if (error instanceof DomainError && (error.code === "GROUP_NOT_JOINED" || error.code === "NOT_FOUND"))
      throw creatorNoAccess(hook);
    throw error;
  }
  return actor;
}

/** Who may make and revoke hooks of a target; returns the target's hooks. */
async function requireHookManager(tx: Tx, actor: Actor, target: HookTarget): Promise<IncomingHook[]> {
  if (target.kind === "chat") {
    await requireRoom(tx, actor.user.id, target.roomId);
    return tx.incomingHooks.listOfRoom(target.roomId);
  }
  await requireGroupManager(tx, actor, target.groupId);
  if (target.kind === "comment") await requireTopic(tx, { kind: "BOARD", groupId: target.groupId, id: target.topicId });
  return tx.incomingHooks.listOfGroup(target.groupId);
}

function hookNotFound(): NotFoundError {
  return new NotFoundError(
    "HOOK_NOT_FOUND",
    "There is no incoming webhook at this address (it may have been revoked).",
  );
}

function creatorNoAccess(hook: IncomingHook): ForbiddenError {
  const place = hook.target.kind === "chat" ? "chat room" : "group";
  return new ForbiddenError(
    "HOOK_CREATOR_NO_ACCESS",
    `The person who made this hook can no longer post in its ${place}; a member must make a new hook.`,
  );
}

/** The operator's listing (`kairan hook list`): a group's or a room's hooks, no member acting. */
export async function listHooksAsOperator(
  ctx: ServiceContext,
  place: { kind: "group"; groupId: number } | { kind: "chat"; roomId: number },
): Promise<IncomingHook[]> {
  return ctx.store.read((tx) =>
    place.kind === "group" ? tx.incomingHooks.listOfGroup(place.groupId) : tx.incomingHooks.listOfRoom(place.roomId),
  );
}

/** The operator's revocation (`kairan hook remove`). @throws NotFoundError HOOK_NOT_FOUND */
export async function removeHookAsOperator(ctx: ServiceContext, hookId: number): Promise<IncomingHook> {
  return ctx.store.transaction(async (tx) => {
    const hook = await tx.incomingHooks.find(hookId);
    if (hook === undefined || !(await tx.incomingHooks.remove(hook.id))) throw hookNotFound();
    return hook;
  });
}
