// A reply by mail, posted: as the person its address names, through the same service functions
// the API and the web use (addComment, pushMessage), so every check of theirs applies: the group's
// membership or the room's, the item's existence, the comment and file limits.
import { createHash } from "node:crypto";
import { type Actor, type Application, requireAccess } from "../../domain/access.js";
import { ForbiddenError } from "../../domain/errors.js";
import { type ReplyClaims, type ReplyItem, checkReplyNotEmpty, checkReplySender } from "../../domain/reply.js";
import { replyText } from "../../mail/reply/reply-text.js";
import type { Tx } from "../../store/store.js";
import { requireRoom } from "../chat/chat.js";
import { pushMessage } from "../chat/chat-message.js";
import { type StagedFile, addComment, requireCommentParent } from "../comment/comment.js";
import { requireGroupMember } from "../group/group-access.js";
import { type ReplyAddressContext, readReplyAddress } from "./reply-address.js";

/**
 * The application a reply by mail acts through: the person's own mailbox, at the level that writes
 * comments and their files (as the API's `write`), so the level checks of those writes apply as for an API client.
 */
export const MAIL_APP: Application = Object.freeze({
  id: 0,
  name: "Kairan mail",
  consumerKey: "",
  accessLevel: "write",
});

/** A recipient the listener accepted: whose reply to what. */
export interface ReplyRecipient {
  readonly claims: ReplyClaims;
  readonly actor: Actor;
}

/** A message received for a reply address, before its text is read. */
export interface ReceivedReply {
  /** The addresses of its From header. */
  readonly from: readonly string[];
  /** Its text part (or its HTML turned into text), quote and signature still in. */
  readonly text: string;
  /** Its attachments, in the blob store's temporary area. */
  readonly files: readonly StagedFile[];
  /** Its Message-ID header, when it has one: a copy sent again is recognised by it. */
  readonly messageId?: string | undefined;
}

/** What a reply became: a comment, a chat message, or nothing new (a copy of one posted already). */
export type PostedReply =
  | { readonly kind: "comment"; readonly item: ReplyItem; readonly number: number }
  | { readonly kind: "chat"; readonly item: ReplyItem; readonly number: number }
  | { readonly kind: "again"; readonly item: ReplyItem };

/** How long a posted reply's Message-ID is remembered: far past any sending server's retries (days). */
export const REPLY_MEMORY_MS = 30 * 86_400_000;

/**
 * Checks a recipient address before any of the message is read (SMTP RCPT): a reply address of
 * this site, not expired, whose person may still post to its item. Writes nothing.
 * @throws NotFoundError REPLY_ADDRESS_UNKNOWN, GROUP_NOT_FOUND, TOPIC_NOT_FOUND, TASK_NOT_FOUND, FILE_NOT_FOUND, NOT_FOUND
 * @throws ForbiddenError REPLY_ADDRESS_INVALID, REPLY_ADDRESS_EXPIRED, REPLY_ACCOUNT_CLOSED, GROUP_NOT_JOINED
 */
export async function checkReplyRecipient(ctx: ReplyAddressContext, address: string): Promise<ReplyRecipient> {
  const claims = await readReplyAddress(ctx, address);
  const actor = await ctx.store.read(async (tx) => {
    const found = await replyActor(tx, claims.userId);
    await requireReplyTarget(tx, found, claims.item);
    return found;
  });
  return { claims, actor };
}

/**
 * Posts a received reply as a comment on its item (or a message in its chat room), by the person
 * its address names, read afresh: their account, the sender, the text and the files are checked
 * again, and the write checks membership and the item as the API's does. Nothing is written when
 * any check fails. The caller discards the files' temporary copies either way.
 * @throws everything {@link checkReplyRecipient}, addComment and pushMessage throw, and
 * ForbiddenError REPLY_SENDER_MISMATCH, ValidationError REPLY_EMPTY, TooLargeError REPLY_TEXT_TOO_LONG
 */
export async function postReply(
  ctx: ReplyAddressContext,
  claims: ReplyClaims,
  reply: ReceivedReply,
): Promise<PostedReply> {
  const actor = await ctx.store.read((tx) => replyActor(tx, claims.userId));
  checkReplySender(reply.from, actor.user.email);
  const text = replyText(reply.text);
  checkReplyNotEmpty(text, reply.files.length);
  requireAccess(actor, "write");
  const item = claims.item;
  // A sending server that lost our answer sends the same message again: it is answered as posted.
  // The memory is written after the post, so a crash in between can still post a copy twice (the
  // window of one commit), never lose one that was not posted.
  const hash = reply.messageId === undefined ? undefined : replyHash(item, reply.messageId);
  if (hash !== undefined && (await ctx.store.read((tx) => tx.mailReplies.posted(actor.user.id, hash))))
    return { kind: "again", item };
  const posted = await postAs(ctx, actor, item, text, reply.files);
  if (hash !== undefined) {
    const at = ctx.clock.now();
    await ctx.store.transaction((tx) => tx.mailReplies.record(actor.user.id, hash, at, at - REPLY_MEMORY_MS));
  }
  return posted;
}

async function postAs(
  ctx: ReplyAddressContext,
  actor: Actor,
  item: ReplyItem,
  text: string,
  files: readonly StagedFile[],
): Promise<PostedReply> {
  if (item.kind === "CHAT") {
    const view = await pushMessage(ctx, actor, { roomId: item.roomId, text, files });
    return { kind: "chat", item, number: view.message.number };
  }
  const view = await addComment(ctx, actor, { parent: item, text, replyTo: undefined, files });
  return { kind: "comment", item, number: view.comment.number };
}

/** The remembered form of a Message-ID for one item: a hash (the header is the sender's text). */
function replyHash(item: ReplyItem, messageId: string): string {
  const itemName = item.kind === "CHAT" ? `CHAT,${item.roomId}` : `${item.kind},${item.groupId},${item.id}`;
  return createHash("sha256").update(`${itemName}\n${messageId}`).digest("base64url");
}

/** The person an address names, as an actor; refused when the account is gone or disabled. */
async function replyActor(tx: Tx, userId: number): Promise<Actor> {
  const user = await tx.users.findById(userId);
  if (user === undefined || (await tx.users.isDisabled(userId)) !== false)
    throw new ForbiddenError("REPLY_ACCOUNT_CLOSED", "The account this reply address was made for is closed.");
  return { user: { id: user.id, name: user.name, email: user.email }, app: MAIL_APP };
}

/** The checks the writes make, made ahead (the same functions): a member of the item's group, an item that exists. */
async function requireReplyTarget(tx: Tx, actor: Actor, item: ReplyItem): Promise<void> {
  requireAccess(actor, "write");
  if (item.kind === "CHAT") {
    await requireRoom(tx, actor.user.id, item.roomId);
    return;
  }
  await requireGroupMember(tx, actor, item.groupId);
  await requireCommentParent(tx, item);
}
