// The inbound SMTP listener (`--smtp-inbound-port`): it takes replies to notifications and nothing
// else. Each step refuses what it can as early as it can, so the sending MTA writes the bounce (no
// backscatter from us): the connection (per-address cap), MAIL FROM (no null sender), RCPT TO (a
// reply address whose token verifies and whose person may still post; one per message; the hourly
// cap), DATA (size, then the reply itself, posted by services/mail-reply/reply-post.ts). No AUTH,
// no relaying, no STARTTLS: put it behind an MTA or a proxy for TLS (docs/operations.md).
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import type { MailConfig } from "../config/mail.js";
import { formatContentId } from "../domain/item-id.js";
import { MAIL_REPLY_LIMITS } from "../domain/limits.js";
import type { ReplyItem } from "../domain/reply.js";
import type { ServiceContext } from "../services/context.js";
import { type ReplyRecipient, checkReplyRecipient, postReply } from "../services/mail-reply/reply-post.js";
import { type ReadMessage, readMessage } from "./receive.js";
import {
  AUTOMATIC_IGNORED,
  LOCAL_ERROR,
  NO_SENDER,
  POSTED,
  type SmtpReply,
  TOO_MANY_CONNECTIONS,
  TOO_MANY_REFUSALS,
  TOO_MANY_REPLIES,
  refusalOf,
  smtpError,
} from "./replies.js";
import { ConnectionCount, HourlyLimit, Slots } from "./throttle.js";

/** What the listener runs with: the services' context, the mail settings and where to listen. */
export interface InboundContext extends ServiceContext {
  readonly config: {
    readonly host: string;
    readonly mail: Pick<MailConfig, "domain" | "inboundPort">;
  };
  /** Where the listener says what it did (never an address, a token or a message's text). */
  readonly log: InboundLog;
}

/** The part of a pino logger the listener writes to. */
export interface InboundLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** The bounds of the listener (docs/operations.md "Replies by mail"); tests may shorten the idle timeout. */
export type InboundLimits = { readonly [name in keyof typeof MAIL_REPLY_LIMITS]: number };

/** The listener, made but not listening. */
export interface InboundMail {
  /** Starts listening on the server's host and the configured port; resolves with the port it got. */
  listen(): Promise<number>;
  /** Stops taking connections and waits for those open (up to `graceMs`, then closes them). */
  close(): Promise<void>;
}

interface SessionState {
  recipient: ReplyRecipient | undefined;
  refused: number;
}

/** Makes the listener of replies by mail over `ctx`; `graceMs` bounds how long a close waits for clients. */
export function createInboundMail(
  ctx: InboundContext,
  graceMs: number,
  limits: InboundLimits = MAIL_REPLY_LIMITS,
): InboundMail {
  const connections = new ConnectionCount(limits.connectionsPerAddress);
  const perUser = new HourlyLimit(limits.messagesPerUserPerHour, ctx.clock);
  const parsing = new Slots(limits.messagesParsedAtOnce);
  const sessions = new Map<string, SessionState>();
  const stateOf = (session: SMTPServerSession) => {
    let state = sessions.get(session.id);
    if (state === undefined) sessions.set(session.id, (state = { recipient: undefined, refused: 0 }));
    return state;
  };
  const server: SMTPServer = new SMTPServer({
    name: ctx.config.mail.domain,
    banner: "Kairan: replies to notifications only",
    logger: false,
    disabledCommands: ["AUTH", "STARTTLS"],
    authOptional: true,
    size: limits.messageMaxBytes,
    rejectOversized: true,
    maxRecipients: 1,
    maxClients: limits.connectionsMax,
    socketTimeout: limits.idleTimeoutMs,
    closeTimeout: graceMs,
    disableReverseLookup: true,
    onConnect(session, callback) {
      if (!connections.enter(session.remoteAddress)) return callback(smtpError(TOO_MANY_CONNECTIONS));
      stateOf(session);
      callback();
    },
    onClose(session) {
      if (sessions.delete(session.id)) connections.leave(session.remoteAddress);
    },
    onMailFrom(address, session, callback) {
      stateOf(session).recipient = undefined;
      callback(address.address === "" ? smtpError(NO_SENDER) : undefined);
    },
    onRcptTo(address, session, callback) {
      const state = stateOf(session);
      checkReplyRecipient(ctx, address.address).then(
        (recipient) => {
          // The same address named again in one message (smtp-server keeps it once) counts once.
          const again = state.recipient !== undefined && sameRecipient(state.recipient, recipient);
          if (!again && !perUser.take(recipient.actor.user.id)) {
            ctx.log.info({ user: recipient.actor.user.id, client: session.remoteAddress }, "reply by mail: hourly cap");
            return callback(smtpError(TOO_MANY_REPLIES));
          }
          state.recipient = recipient;
          callback();
        },
        (error: unknown) => {
          const reply = answerFor(ctx.log, error, session);
          state.refused += 1;
          if (state.refused < limits.refusedRecipientsPerConnection) return callback(smtpError(reply));
          callback(smtpError(TOO_MANY_REFUSALS));
          connectionOf(server, session)?.close();
        },
      );
    },
    onData(stream, session, callback) {
      const recipient = stateOf(session).recipient;
      receive(ctx, parsing, stream, session, recipient).then(
        (reply) => callback(reply.code < 400 ? null : smtpError(reply), reply.text),
        (error: unknown) => callback(smtpError(answerFor(ctx.log, error, session))),
      );
    },
  });
  server.on("error", (error) => ctx.log.warn({ err: error }, "smtp inbound: connection error"));
  return {
    listen: () =>
      new Promise<number>((resolve, reject) => {
        server.server.once("error", reject);
        server.listen(ctx.config.mail.inboundPort ?? 0, ctx.config.host, () => {
          server.server.off("error", reject);
          resolve((server.server.address() as AddressInfo).port);
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        if (!server.server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}

/** Reads the message and posts it for its one recipient; the answer to DATA. */
async function receive(
  ctx: InboundContext,
  parsing: Slots,
  stream: SMTPServerDataStream,
  session: SMTPServerSession,
  recipient: ReplyRecipient | undefined,
): Promise<SmtpReply> {
  // The slot is taken before the first byte is read and held until the answer: a waiting
  // message stays in the client's socket (TCP holds it back) instead of in this process's memory.
  const leave = await parsing.enter();
  try {
    return await answer(ctx, await readMessage(stream, ctx.blobs), stream, session, recipient);
  } finally {
    leave();
  }
}

/** What to answer a message read whole: posted, dropped (automatic) or refused. */
async function answer(
  ctx: InboundContext,
  message: ReadMessage,
  stream: SMTPServerDataStream,
  session: SMTPServerSession,
  recipient: ReplyRecipient | undefined,
): Promise<SmtpReply> {
  try {
    // Too large: smtp-server answers 552 itself (rejectOversized); a broken message has no one to answer.
    if (stream.sizeExceeded || recipient === undefined) return LOCAL_ERROR;
    if (message.broken !== undefined) {
      ctx.log.warn({ err: message.broken, client: session.remoteAddress }, "reply by mail: not received whole");
      return LOCAL_ERROR;
    }
    if (message.automatic) {
      ctx.log.info(
        { user: recipient.actor.user.id, client: session.remoteAddress },
        "reply by mail: automatic, dropped",
      );
      return AUTOMATIC_IGNORED;
    }
    if (message.refusal !== undefined) throw message.refusal;
    const posted = await postReply(ctx, recipient.claims, message.reply);
    if (posted.kind === "again") {
      ctx.log.info(
        { user: recipient.actor.user.id, item: itemName(posted.item), client: session.remoteAddress },
        "reply by mail: posted already (the same Message-ID), answered as posted",
      );
      return POSTED;
    }
    ctx.log.info(
      {
        user: recipient.actor.user.id,
        item: itemName(posted.item),
        number: posted.number,
        client: session.remoteAddress,
      },
      `reply by mail: posted as a ${posted.kind === "chat" ? "chat message" : "comment"}`,
    );
    return POSTED;
  } finally {
    await message.discard();
  }
}

/** The reply for a refusal, logged by its code; a fault is logged whole and answered "try again later". */
function answerFor(log: InboundLog, error: unknown, session: SMTPServerSession): SmtpReply {
  const reply = refusalOf(error);
  if (reply === undefined) {
    log.error({ err: error, client: session.remoteAddress }, "reply by mail: failed");
    return LOCAL_ERROR;
  }
  const code = (error as { code?: unknown }).code;
  log.info({ code, smtp: reply.code, client: session.remoteAddress }, "reply by mail: refused");
  return reply;
}

/** The open connection of `session` (smtp-server keeps them in a set). */
function connectionOf(server: SMTPServer, session: SMTPServerSession) {
  for (const connection of server.connections) if (connection.id === session.id) return connection;
  return undefined;
}

function sameRecipient(a: ReplyRecipient, b: ReplyRecipient): boolean {
  return a.actor.user.id === b.actor.user.id && itemName(a.claims.item) === itemName(b.claims.item);
}

function itemName(item: ReplyItem): string {
  return item.kind === "CHAT" ? `chat room ${item.roomId}` : formatContentId(item);
}
