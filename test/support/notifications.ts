import assert from "node:assert/strict";
import { escapeText } from "../../src/atom/build.js";
import type { XmlElement } from "../../src/atom/parse.js";
import { assertValidAtom } from "./atom-schema.js";
import type { TestUser } from "./factories.js";
import { type Answer, CLIENT_NS, atomText, entriesOf, nsChild, request } from "./http.js";
import type { TestServer } from "./server.js";

/** A confirmation as clients send it: one entry per id, with an `updated` child to be ignored. */
export function confirmBody(ids: readonly string[]): string {
  return `<feed ${CLIENT_NS}>${ids.map((id) => `<entry><id>${id}</id><updated>2011-04-01T10:00:00Z</updated></entry>`).join("")}</feed>`;
}

/** The ids of entries, in feed order. */
export function idsOf(entries: readonly XmlElement[]): (string | undefined)[] {
  return entries.map((entry) => atomText(entry, "id"));
}

/** The entry with this id. */
export function entryWithId(entries: readonly XmlElement[], id: string): XmlElement {
  const found = entries.find((entry) => atomText(entry, "id") === id);
  assert.ok(found, `an entry ${id} among ${JSON.stringify(idsOf(entries))}`);
  return found;
}

/** The text of a `prefix:name` child. */
export function field(entry: XmlElement, prefix: "cbl" | "cblNtf", name: string): string | undefined {
  return nsChild(entry, prefix, name)?.text;
}

/** The `term`s of an entry's categories, in order. */
export function termsOf(entry: XmlElement): (string | undefined)[] {
  return entry.children.filter((c) => c.local === "category").map((c) => c.attributes.get("term"));
}

/** Calls the notification (`notification`) or like-notification (`goodNotification`) endpoint over real HTTP. */
export class NotificationClient {
  constructor(
    private readonly server: TestServer,
    private readonly path: "notification" | "goodNotification" = "notification",
  ) {}

  /** GET with a query; asserts 200 and a valid Atom feed. */
  async feed(user: TestUser, query = ""): Promise<XmlElement> {
    const answer = await this.get(user, query);
    assert.equal(answer.status, 200, answer.text);
    await assertValidAtom(answer.text);
    return answer.xml;
  }

  /** The entries of {@link feed}. */
  async list(user: TestUser, query = ""): Promise<XmlElement[]> {
    return entriesOf(await this.feed(user, query));
  }

  /** The ids of {@link list}. */
  async ids(user: TestUser, query = ""): Promise<(string | undefined)[]> {
    return idsOf(await this.list(user, query));
  }

  /** The raw GET answer (for errors). */
  get(user: TestUser, query = ""): Promise<Answer> {
    return request(`${this.server.url}/api/${this.path}/V2${query === "" ? "" : `?${query}`}`, { token: user.token });
  }

  /** POSTs a confirmation of `ids` (or a raw body), with a query (such as `category=MENTION`) when given. */
  post(user: TestUser, body: string | readonly string[], contentType?: string, query = ""): Promise<Answer> {
    const text = typeof body === "string" ? body : confirmBody(body);
    const url = `${this.server.url}/api/${this.path}/V2${query === "" ? "" : `?${query}`}`;
    return request(url, { token: user.token, body: text, contentType });
  }

  /** Confirms `ids`; asserts 200 and a valid feed; returns the entries that became confirmed. */
  async confirm(user: TestUser, ids: readonly string[]): Promise<XmlElement[]> {
    const answer = await this.post(user, ids);
    assert.equal(answer.status, 200, answer.text);
    await assertValidAtom(answer.text);
    return entriesOf(answer.xml);
  }
}

/** Board and comment writes over real HTTP, as clients send them. */
export class BoardClient {
  constructor(private readonly server: TestServer) {}

  /** Creates a topic; returns its id. */
  async create(user: TestUser, groupId: number, title: string, body = ""): Promise<string> {
    const xml = `<feed ${CLIENT_NS}><cbl:operation type="insert"/><entry><cbl:group id="1:${groupId}"/><title>${escapeText(title)}</title><summary type="text">${escapeText(body)}</summary></entry></feed>`;
    const answer = await this.write(user, "board", xml);
    const id = atomText(entriesOf(answer.xml)[0]!, "id");
    assert.ok(id);
    return id;
  }

  async update(user: TestUser, id: string, title: string, body: string): Promise<void> {
    await this.write(
      user,
      "board",
      `<feed ${CLIENT_NS}><cbl:operation type="update"/><entry><id>${id}</id><title>${escapeText(title)}</title><summary type="text">${escapeText(body)}</summary></entry></feed>`,
    );
  }

  async remove(user: TestUser, id: string): Promise<void> {
    await this.write(
      user,
      "board",
      `<feed ${CLIENT_NS}><cbl:operation type="delete"/><entry><id>${id}</id></entry></feed>`,
    );
  }

  /** Adds a comment to a topic, task or file; returns the comment's id. */
  async comment(user: TestUser, parentId: string, text: string): Promise<string> {
    const answer = await this.write(
      user,
      "comment",
      `<feed ${CLIENT_NS}><cbl:operation type="insert"/><id>${parentId}</id><entry><summary type="text">${escapeText(text)}</summary></entry></feed>`,
    );
    const id = atomText(entriesOf(answer.xml)[0]!, "id");
    assert.ok(id);
    return id;
  }

  async deleteComment(user: TestUser, commentId: string): Promise<void> {
    await this.write(
      user,
      "comment",
      `<feed ${CLIENT_NS}><cbl:operation type="delete"/><entry><id>${commentId}</id></entry></feed>`,
    );
  }

  /** Likes (`on`) or unlikes an item. */
  async like(user: TestUser, id: string, on = true): Promise<void> {
    await this.write(
      user,
      "good",
      `<feed ${CLIENT_NS}><cbl:operation type="${on ? "insert" : "delete"}"/><entry><id>${id}</id></entry></feed>`,
    );
  }

  private async write(user: TestUser, path: string, body: string): Promise<Answer> {
    const answer = await request(`${this.server.url}/api/${path}/V2`, { token: user.token, body });
    assert.equal(answer.status, 200, answer.text);
    return answer;
  }
}
