import assert from "node:assert/strict";
import { NS } from "../../src/atom/namespaces.js";
import type { XmlElement } from "../../src/atom/parse.js";
import type { TestUser } from "./factories.js";
import { type Answer, atomText, entriesOf, request } from "./http.js";
import type { TestServer } from "./server.js";

/** Namespaces a chat client declares in its requests. */
export const CHAT_NS =
  'xmlns="http://www.w3.org/2005/Atom" xmlns:cbl="http://schemas.cybozulive.com/common/2010" xmlns:cblChat="http://schemas.cybozulive.com/chat/2010"';

/** `MYPAGE,1:<viewer>,MP_CHAT,1:<room>`. */
export function roomId(viewer: { id: number }, room: number): string {
  return `MYPAGE,1:${viewer.id},MP_CHAT,1:${room}`;
}

/** The room number of a room entry's id. */
export function roomNumberOf(entry: XmlElement): number {
  const id = atomText(entry, "id") ?? "";
  const match = /MP_CHAT,1:([0-9]+)$/.exec(id);
  assert.ok(match, `a room id: ${id}`);
  return Number(match[1]);
}

/** Calls the chat endpoints over real HTTP. */
export class ChatClient {
  constructor(private readonly server: TestServer) {}

  /** GET /api/mpChat/V2 with a query. */
  rooms(user: TestUser, query: string): Promise<Answer> {
    return request(`${this.server.url}/api/mpChat/V2?${query}`, { token: user.token });
  }

  /** POST /api/mpChat/V2 with an entry (and an operation). */
  writeRoom(user: TestUser, operation: string, entry: string): Promise<Answer> {
    const body = `<feed ${CHAT_NS}><cbl:operation type="${operation}"/><entry>${entry}</entry></feed>`;
    return request(`${this.server.url}/api/mpChat/V2`, { token: user.token, body });
  }

  /** Creates a THEME room; its number. */
  async theme(creator: TestUser, title: string, members: readonly TestUser[]): Promise<number> {
    const whos = members.map((m) => `<cbl:who id="1:${m.id}"/>`).join("");
    const answer = await this.writeRoom(creator, "insert", `<title>${title}</title>${whos}`);
    assert.equal(answer.status, 200, answer.text);
    return roomNumberOf(entriesOf(answer.xml)[0]!);
  }

  /** Opens the DIRECT room of a pair; its number. */
  async direct(creator: TestUser, other: TestUser): Promise<number> {
    const entry = `<cblChat:type>DIRECT</cblChat:type><cbl:who id="1:${other.id}"/>`;
    const answer = await this.writeRoom(creator, "insert", entry);
    assert.equal(answer.status, 200, answer.text);
    return roomNumberOf(entriesOf(answer.xml)[0]!);
  }

  /** POST /api/comet/mpChatPush/V2 with a raw body. */
  pushRaw(user: TestUser, body: string): Promise<Answer> {
    return request(`${this.server.url}/api/comet/mpChatPush/V2`, { token: user.token, body });
  }

  /** Pushes `text` (already escaped as the caller wants it) into a room. */
  push(user: TestUser, room: number, text: string): Promise<Answer> {
    const body = `<feed ${CHAT_NS}><cbl:operation type="insert"/><id>${roomId(user, room)}</id><entry><summary type="text">${text}</summary></entry></feed>`;
    return this.pushRaw(user, body);
  }

  /** Pushes and asserts 200; the message entry. */
  async say(user: TestUser, room: number, text: string): Promise<XmlElement> {
    const answer = await this.push(user, room, text);
    assert.equal(answer.status, 200, answer.text);
    return entriesOf(answer.xml)[0]!;
  }

  /** GET /api/comment/V2?entry=<room> with extra query. */
  messages(user: TestUser, room: number, query = ""): Promise<Answer> {
    const entry = encodeURIComponent(roomId(user, room));
    return request(`${this.server.url}/api/comment/V2?entry=${entry}${query}`, { token: user.token });
  }

  /** GET or POST /api/notification/V2?category=M_CHAT. */
  notifications(user: TestUser, query = "", confirm?: readonly number[]): Promise<Answer> {
    const url = `${this.server.url}/api/notification/V2?category=M_CHAT${query}`;
    if (confirm === undefined) return request(url, { token: user.token });
    const entries = confirm.map((room) => `<entry><id>${roomId(user, room)}</id></entry>`).join("");
    return request(url, { token: user.token, body: `<feed ${CHAT_NS}>${entries}</feed>` });
  }
}

/** A namespaced child's text. */
export function chatField(entry: XmlElement, prefix: "cbl" | "cblChat" | "cblNtf", name: string): string | undefined {
  return entry.children.find((c) => c.ns === NS[prefix] && c.local === name)?.text;
}
