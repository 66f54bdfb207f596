// The mirror client of docs/api.md "Delta sync", shared by the delta-sync tests.
import assert from "node:assert/strict";
import { NS } from "../../src/atom/namespaces.js";
import { type XmlElement, children } from "../../src/atom/parse.js";
import { atomText, request } from "./http.js";
import { assertValidAtom } from "./atom-schema.js";

/** The feed's next-changes link. */
export function nextChanges(feed: XmlElement): string {
  const link = children(feed, NS.atom, "link").find((l) => l.attributes.get("rel") === "next-changes");
  assert.ok(link, "the feed carries a next-changes link");
  return link.attributes.get("href") ?? "";
}

/**
 * A mirror client as docs/api.md "Delta sync" tells one to be written: it starts from a plain read,
 * then follows next-changes, applying entries (upsert by id) and tombstones (remove by ref) in order.
 */
export class Mirror {
  readonly items = new Map<string, string>();
  #next = "";
  constructor(
    private readonly token: string,
    private readonly max = 3,
    /** What the mirror keeps of an entry: its title, or (chat messages have none) another text. */
    private readonly valueOf: (entry: XmlElement) => string = titleOf,
  ) {}

  /** Starts from a plain read of the feed. */
  async start(url: string): Promise<void> {
    const answer = await request(url, { token: this.token });
    assert.equal(answer.status, 200, answer.text);
    this.items.clear();
    for (const entry of children(answer.xml, NS.atom, "entry")) this.items.set(idOf(entry), this.valueOf(entry));
    this.#next = nextChanges(answer.xml);
  }

  /** Follows next-changes until a page brings nothing; answers the number of pages read. */
  async sync(): Promise<number> {
    for (let pages = 1; ; pages++) {
      const url = new URL(this.#next);
      url.searchParams.set("max-results", String(this.max));
      const answer = await request(url.toString(), { token: this.token });
      assert.equal(answer.status, 200, answer.text);
      await assertValidAtom(answer.text);
      let steps = 0;
      for (const node of answer.xml.children) {
        if (node.ns === NS.atom && node.local === "entry") {
          this.items.set(idOf(node), this.valueOf(node));
          steps++;
        } else if (node.ns === NS.at && node.local === "deleted-entry") {
          assert.match(node.attributes.get("when") ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
          this.items.delete(node.attributes.get("ref") ?? "");
          steps++;
        }
      }
      assert.ok(steps <= this.max, "a page holds at most max-results changes");
      this.#next = nextChanges(answer.xml);
      if (steps === 0) return pages;
    }
  }

  get next(): string {
    return this.#next;
  }
}

function titleOf(entry: XmlElement): string {
  return atomText(entry, "title") ?? "";
}

export function idOf(entry: XmlElement): string {
  return atomText(entry, "id") ?? "";
}

/** The server's view: a fresh full read of the feed. */
export async function fullRead(
  url: string,
  token: string,
  valueOf: (entry: XmlElement) => string = titleOf,
): Promise<Map<string, string>> {
  const answer = await request(`${url}&max-results=100`, { token });
  assert.equal(answer.status, 200, answer.text);
  return new Map(children(answer.xml, NS.atom, "entry").map((entry) => [idOf(entry), valueOf(entry)]));
}
