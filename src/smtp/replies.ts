// The one table of the SMTP edge: a refusal (a domain error) becomes an SMTP reply code and a line
// of text the sending MTA puts into its bounce, so the person learns why nothing was posted. The
// texts are plain ASCII (RFC 5321 replies) and say nothing of anyone else's data.
import { DomainError } from "../domain/errors.js";
import { CHAT_LIMITS, LIMITS, MAIL_REPLY_LIMITS } from "../domain/limits.js";

/** An SMTP reply to a command: its code and its text. */
export interface SmtpReply {
  readonly code: number;
  readonly text: string;
}

const NOTHING = "Nothing was posted.";
const GONE = `The item this reply was for no longer exists, or you no longer have access to it. ${NOTHING}`;
const EMPTY = `The reply is empty once the quoted message and the signature are removed. ${NOTHING}`;

/** Refusals by domain error code. */
const BY_CODE: Readonly<Record<string, SmtpReply>> = {
  REPLY_ADDRESS_UNKNOWN: {
    code: 550,
    text: "No such mailbox: this server only takes replies to its own notifications.",
  },
  REPLY_ADDRESS_INVALID: {
    code: 550,
    text: "This reply address is not valid (changed, or not made by this site). Reply on the site instead.",
  },
  REPLY_ADDRESS_EXPIRED: {
    code: 550,
    text: `This reply address has expired (they work for ${MAIL_REPLY_LIMITS.tokenLifetimeDays} days). Reply on the site instead.`,
  },
  REPLY_ACCOUNT_CLOSED: { code: 550, text: `The account this reply address was made for is closed. ${NOTHING}` },
  GROUP_NOT_JOINED: { code: 550, text: `You are no longer a member of the group of this item. ${NOTHING}` },
  GROUP_NOT_FOUND: { code: 550, text: GONE },
  TOPIC_NOT_FOUND: { code: 550, text: GONE },
  TASK_NOT_FOUND: { code: 550, text: GONE },
  FILE_NOT_FOUND: { code: 550, text: GONE },
  NOT_FOUND: { code: 550, text: GONE },
  REPLY_SENDER_MISMATCH: {
    code: 550,
    text: `The sender is not the person this reply address was sent to (a forwarded notification cannot be answered by mail). ${NOTHING}`,
  },
  REPLY_EMPTY: { code: 550, text: EMPTY },
  COMMENT_TEXT_REQUIRED: { code: 550, text: EMPTY },
  CHAT_MESSAGE_MISSING: { code: 550, text: EMPTY },
  REPLY_TEXT_TOO_LONG: {
    code: 552,
    text: `The reply's text is too long to read (over ${MAIL_REPLY_LIMITS.textMaxChars} characters, or HTML too large to turn into text). ${NOTHING}`,
  },
  COMMENT_TEXT_TOO_LONG: {
    code: 550,
    text: `The reply is longer than ${LIMITS.commentMaxChars} characters, the limit of a comment. ${NOTHING}`,
  },
  CHAT_MESSAGE_TOO_LONG: {
    code: 550,
    text: `The reply is longer than ${CHAT_LIMITS.messageMaxChars} characters, the limit of a chat message. ${NOTHING}`,
  },
  TOO_MANY_FILES: { code: 550, text: `The reply has more than ${LIMITS.filesPerComment} attachments. ${NOTHING}` },
  FILE_TOO_LARGE: { code: 552, text: `An attachment is larger than ${LIMITS.fileMaxBytes} bytes (25 MB). ${NOTHING}` },
  ATTACHMENTS_TOO_LARGE: {
    code: 552,
    text: `The attachments exceed ${LIMITS.multipartMaxBytes} bytes (50 MB) in all. ${NOTHING}`,
  },
};

/** Refusals by kind, for codes the table does not name. */
const BY_KIND: Readonly<Record<DomainError["kind"], SmtpReply | undefined>> = {
  invalid: { code: 550, text: `The reply could not be posted. ${NOTHING}` },
  forbidden: { code: 550, text: `You may not post this reply. ${NOTHING}` },
  not_found: { code: 550, text: GONE },
  too_large: { code: 552, text: `The reply is too large. ${NOTHING}` },
  too_many_requests: { code: 450, text: "Too many replies; try again later." },
  unavailable: { code: 451, text: "The server cannot take replies right now; try again later." },
  storage_full: { code: 452, text: "The server's storage is full; try again later." },
  unauthenticated: undefined,
  method_not_allowed: undefined,
  conflict: undefined,
  unsupported_media_type: undefined,
  uri_too_long: undefined,
  gone: undefined,
};

/** The temporary failure of anything unexpected: the sending MTA keeps the message and tries again. */
export const LOCAL_ERROR: SmtpReply = { code: 451, text: "Local error while posting the reply; try again later." };

/** Over the hourly number of replies of one person. */
export const TOO_MANY_REPLIES: SmtpReply = {
  code: 450,
  text: `Too many replies by mail from this person in the last hour (${MAIL_REPLY_LIMITS.messagesPerUserPerHour}); try again later.`,
};

/** Too many connections from one client address at once. */
export const TOO_MANY_CONNECTIONS: SmtpReply = {
  code: 421,
  text: "Too many connections from your address; try again later.",
};

/** Too many refused recipients on one connection: it is closed. */
export const TOO_MANY_REFUSALS: SmtpReply = { code: 421, text: "Too many refused recipients; closing the connection." };

/** A message without a sender (a bounce, most automatic replies) is never a reply. */
export const NO_SENDER: SmtpReply = {
  code: 550,
  text: "Mail without a sender (bounces, automatic replies) is not taken here.",
};

/** The answer to a message that was posted. */
export const POSTED: SmtpReply = { code: 250, text: "Posted." };

/** The answer to an automatic reply (an out-of-office message): taken and dropped, so its sender gets no bounce. */
export const AUTOMATIC_IGNORED: SmtpReply = { code: 250, text: "Automatic reply: not posted." };

/** The reply for `error`; undefined when it is not a refusal the table knows (a fault: log it, then {@link LOCAL_ERROR}). */
export function refusalOf(error: unknown): SmtpReply | undefined {
  if (!(error instanceof DomainError)) return undefined;
  return BY_CODE[error.code] ?? BY_KIND[error.kind];
}

/** `reply` as the error smtp-server's callbacks take. */
export function smtpError(reply: SmtpReply): Error & { responseCode: number } {
  return Object.assign(new Error(reply.text), { responseCode: reply.code });
}
