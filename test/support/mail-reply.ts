// Replies by mail as a real SMTP client sends them (nodemailer), and a raw SMTP conversation for
// what nodemailer would never send (malformed commands, a null sender, an idle client).
import assert from "node:assert/strict";
import { type Socket, connect } from "node:net";
import nodemailer from "nodemailer";
import type { ReplyItem } from "../../src/domain/reply.js";
import { replyAddressFor } from "../../src/services/mail-reply/reply-address.js";
import type { Clock } from "../../src/clock.js";
import type { Store } from "../../src/store/store.js";

/** The reply address a server over `store` makes for `userId` about `item` (the site key is in the database). */
export async function replyAddress(
  source: { readonly store: Store; readonly clock: Clock },
  domain: string,
  userId: number,
  item: ReplyItem,
): Promise<string> {
  const ctx = {
    store: source.store,
    blobs: undefined as never,
    clock: source.clock,
    config: { mail: { domain, inboundPort: 0 } },
  };
  const address = await replyAddressFor(ctx, undefined, userId, item);
  assert.ok(address !== undefined);
  return address;
}

/** A message as nodemailer takes it. */
export interface Reply {
  readonly from: string;
  readonly to: string;
  readonly text?: string;
  readonly html?: string;
  readonly subject?: string;
  readonly headers?: Record<string, string>;
  readonly attachments?: readonly { filename: string; content: Buffer | string; contentType?: string; cid?: string }[];
  /** The envelope's sender, when it differs from `from`. */
  readonly envelopeFrom?: string;
  /** The envelope's recipients, when they differ from `to`. */
  readonly envelopeTo?: readonly string[];
  /** Its Message-ID (nodemailer makes a new one otherwise). */
  readonly messageId?: string;
}

/** How the listener answered: 250 and its text, or the refusal's code, text and the command refused. */
export interface Answered {
  readonly code: number;
  readonly response: string;
  readonly command?: string;
}

/** Sends `reply` to the listener on `port` of 127.0.0.1 over SMTP with nodemailer. */
export async function sendReply(port: number | undefined, reply: Reply): Promise<Answered> {
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    secure: false,
    ignoreTLS: true,
    name: "client.example",
  });
  try {
    const info = await transport.sendMail({
      from: reply.from,
      to: reply.to,
      subject: reply.subject ?? "Re: a notification",
      text: reply.text,
      html: reply.html,
      headers: reply.headers,
      ...(reply.messageId === undefined ? {} : { messageId: reply.messageId }),
      attachments: reply.attachments?.map((a) => ({ ...a })),
      envelope: { from: reply.envelopeFrom ?? reply.from, to: reply.envelopeTo ? [...reply.envelopeTo] : reply.to },
    });
    return { code: Number(/^(\d{3})/.exec(info.response)?.[1] ?? 0), response: info.response };
  } catch (error) {
    const failed = error as { responseCode?: number; response?: string; command?: string; message: string };
    return {
      code: failed.responseCode ?? 0,
      response: failed.response ?? failed.message,
      ...(failed.command === undefined ? {} : { command: failed.command }),
    };
  } finally {
    transport.close();
  }
}

/** A raw SMTP conversation: each command gets the server's whole reply (all its lines). */
export interface RawSmtp {
  /** The greeting. */
  readonly greeting: string;
  /** Sends `line` (CRLF added) and resolves with the reply. */
  command(line: string): Promise<string>;
  /** Writes bytes as they are, without waiting for a reply. */
  write(bytes: string | Buffer): void;
  /** The next reply, for bytes sent with {@link RawSmtp.write}. */
  reply(): Promise<string>;
  /** Resolves when the server closes the connection. */
  readonly closed: Promise<void>;
  close(): void;
}

/** Opens a raw SMTP connection to the server's listener. */
export async function rawSmtp(port: number): Promise<RawSmtp> {
  const socket: Socket = connect(port, "127.0.0.1");
  let buffer = "";
  const waiting: ((reply: string) => void)[] = [];
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  const deliver = () => {
    for (;;) {
      // A reply ends with a line "NNN text" (a space after the code, where the others have "-").
      const end = /^\d{3} [^\r\n]*\r\n/m.exec(buffer);
      if (end === null || waiting.length === 0) return;
      const stop = end.index + end[0].length;
      const reply = buffer.slice(0, stop);
      buffer = buffer.slice(stop);
      waiting.shift()?.(reply);
    }
  };
  socket.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("latin1");
    deliver();
  });
  socket.on("error", () => undefined);
  const reply = () =>
    new Promise<string>((resolve) => {
      waiting.push(resolve);
      deliver();
      void closed.then(() => resolve(buffer === "" ? "(closed)" : buffer));
    });
  const greeting = await reply();
  return {
    greeting,
    command(line) {
      socket.write(`${line}\r\n`);
      return reply();
    },
    write: (bytes) => void socket.write(bytes),
    reply,
    closed,
    close: () => socket.destroy(),
  };
}
