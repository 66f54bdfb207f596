// Mentions (docs/api.md "Mentions"): who a text names, who is notified of it, what the web's
// suggestion list offers, and which member page a rendered handle links to.
import type { Actor } from "../../domain/access.js";
import type { ContentRef } from "../../domain/item-id.js";
import { LIMITS } from "../../domain/limits.js";
import { handleNames, mentionHandles, mentionSpans, mentionText } from "../../domain/mention.js";
import type { MentionableMember } from "../../store/queries/mentions.js";
import type { Tx } from "../../store/store.js";
import { requireGroupMember } from "../group/group-access.js";
import type { ServiceContext } from "../context.js";
import { logMentions } from "../mail-notify/log.js";

/** A text that was written: an item's body (commentNumber null) or one of its comments. */
export interface WrittenText {
  readonly item: ContentRef;
  readonly commentNumber: number | null;
  readonly text: string;
  /** The text before an edit: who it named already is not notified again. */
  readonly previousText?: string;
  /** The writer (never notified of naming themselves); null for an operator's change. */
  readonly actorId: number | null;
  readonly at: number;
}

/**
 * The joined members a text names. Every member of the group may read its items, so this is also
 * who may read the text: nobody outside the group is ever named.
 */
async function membersNamedIn(tx: Tx, groupId: number, text: string): Promise<MentionableMember[]> {
  const handles = mentionHandles(text);
  if (handles.length === 0) return [];
  const candidates = await tx.mentions.membersNamed(groupId, handles);
  return candidates.filter((member) => handles.some((handle) => handleNames(handle, member)));
}

/**
 * Notifies the members a text names, once each, but its writer and anyone the text named before
 * an edit; runs in the write's transaction. Named members are notified even if they muted the group.
 */
export async function notifyMentions(tx: Tx, written: WrittenText): Promise<void> {
  const named = await membersNamedIn(tx, written.item.groupId, written.text);
  if (named.length === 0) return;
  const before = new Set(
    written.previousText === undefined
      ? []
      : (await membersNamedIn(tx, written.item.groupId, written.previousText)).map((member) => member.userId),
  );
  const userIds = [...new Set(named.map((member) => member.userId))].filter(
    (userId) => userId !== written.actorId && !before.has(userId),
  );
  await tx.mentions.record(written.item, written.commentNumber, userIds, written.actorId, written.at);
  // The mail of a mention goes at once (services/mail-notify): one log row per person named.
  await logMentions(tx, {
    item: written.item,
    number: written.commentNumber,
    userIds,
    actorId: written.actorId,
    at: written.at,
  });
}

/** A member the web's suggestion list offers, and the text that picking them inserts. */
export interface MentionSuggestion {
  readonly memberId: number;
  readonly name: string;
  readonly insert: string;
}

/**
 * Members of a group the caller has joined whose name or address begins with `prefix`.
 * @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED
 */
export async function suggestMentions(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; prefix: string },
): Promise<MentionSuggestion[]> {
  const prefix = [...input.prefix].slice(0, LIMITS.mentionQueryMaxChars).join("");
  return ctx.store.read(async (tx) => {
    await requireGroupMember(tx, actor, input.groupId);
    const members = await tx.mentions.suggest(input.groupId, prefix, LIMITS.mentionSuggestions);
    const shared = await tx.mentions.sharedNames(
      input.groupId,
      members.map((member) => member.name),
    );
    return members.map((member) => ({
      memberId: member.memberId,
      name: member.name,
      insert: mentionText(member, shared.has(member.name)),
    }));
  });
}

/**
 * The member page each handle of these texts links to (the first member it names, by member
 * id); handles that name no joined member are absent. Runs in a read that checked membership.
 */
export async function mentionTargets(tx: Tx, groupId: number, texts: readonly string[]): Promise<Map<string, number>> {
  // Every spelling the texts use of the handles that count (a text's first ones, domain/mention.ts).
  const handles = [
    ...new Set(
      texts.flatMap((text) => {
        const counted = new Set(mentionHandles(text).map((handle) => handle.toLowerCase()));
        return mentionSpans(text)
          .map((span) => span.handle)
          .filter((handle) => counted.has(handle.toLowerCase()));
      }),
    ),
  ];
  const targets = new Map<string, number>();
  if (handles.length === 0) return targets;
  const members = (await tx.mentions.membersNamed(groupId, handles)).sort((a, b) => a.memberId - b.memberId);
  for (const handle of handles) {
    const member = members.find((candidate) => handleNames(handle, candidate));
    if (member) targets.set(handle, member.memberId);
  }
  return targets;
}
