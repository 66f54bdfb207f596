// Conditional updates and deletes over the API (docs/api.md "Conditional writes"): If-Match names
// the ETag of the item's own feed (`GET ...?entry=<id>`); a stale tag is 412 with the current entry.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import type { TestUser } from "../support/factories.js";
import { describeEachBackend } from "../support/backends.js";
import { eventBody } from "../support/events.js";
import { type Answer, CLIENT_NS, atomText, entriesOf, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";

const ATOM = 'xmlns="http://www.w3.org/2005/Atom"';
const TASK_NS = `${ATOM} xmlns:cbl="http://schemas.cybozulive.com/common/2010" xmlns:cblTsk="http://schemas.cybozulive.com/task/2010"`;

/** One resource that has updates and deletes over the API. */
interface Resource {
  readonly name: string;
  /** Creates one item; its id. */
  create(): Promise<string>;
  /** The item's own feed's path and query. */
  entry(id: string): string;
  /** The write endpoint's path. */
  readonly endpoint: string;
  update(id: string, text: string): string;
  remove(id: string): string;
}

describeEachBackend("If-Match on updates and deletes", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let group: Group;
  let sequence = 0;
  const ok = (answer: Answer) => {
    assert.equal(answer.status, 200, answer.text);
    return atomText(entriesOf(answer.xml)[0]!, "id")!;
  };
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    request(`${server.url}${path}`, { token: alice.token, body, headers });

  const resources = (): Resource[] => [
    {
      name: "topic",
      endpoint: "/api/board/V2",
      create: async () =>
        ok(
          await post(
            "/api/board/V2",
            `<feed ${CLIENT_NS}><entry><title>t${++sequence}</title><summary>x</summary><cbl:group id="1:${group.id}"/></entry></feed>`,
          ),
        ),
      entry: (id) => `/api/board/V2?entry=${id}`,
      update: (id, text) =>
        `<feed ${CLIENT_NS}><cbl:operation type="update"/><entry><id>${id}</id><title>${text}</title></entry></feed>`,
      remove: (id) => `<feed ${CLIENT_NS}><cbl:operation type="delete"/><entry><id>${id}</id></entry></feed>`,
    },
    {
      name: "comment",
      endpoint: "/api/comment/V2",
      create: async () => {
        const topic = await server.factories.topic(group, alice);
        const parent = `GROUP,1:${group.id},BOARD,1:${topic.id}`;
        return ok(
          await post(
            "/api/comment/V2",
            `<feed ${CLIENT_NS}><id>${parent}</id><entry><summary>c</summary></entry></feed>`,
          ),
        );
      },
      entry: (id) => `/api/comment/V2?entry=${id}`,
      update: (id, text) =>
        `<feed ${CLIENT_NS}><cbl:operation type="update"/><entry><id>${id}</id><summary>${text}</summary></entry></feed>`,
      remove: (id) => `<feed ${CLIENT_NS}><cbl:operation type="delete"/><entry><id>${id}</id></entry></feed>`,
    },
    {
      name: "group event",
      endpoint: "/api/gwSchedule/V2",
      create: async () =>
        ok(
          await post(
            "/api/gwSchedule/V2",
            eventBody({ groupId: group.id, title: "e", start: "2026-04-02T00:00:00Z", end: "2026-04-02T01:00:00Z" }),
          ),
        ),
      entry: (id) => `/api/gwSchedule/V2?entry=${id}`,
      update: (id, text) =>
        eventBody({ operation: "update", id, title: text, start: "2026-04-02T00:00:00Z", end: "2026-04-02T01:00:00Z" }),
      remove: (id) => eventBody({ operation: "delete", id }),
    },
    {
      name: "personal event",
      endpoint: "/api/schedule/V2",
      create: async () =>
        ok(
          await post(
            "/api/schedule/V2",
            eventBody({ title: "p", start: "2026-04-02T00:00:00Z", end: "2026-04-02T01:00:00Z" }),
          ),
        ),
      entry: (id) => `/api/schedule/V2?entry=${id}`,
      update: (id, text) =>
        eventBody({ operation: "update", id, title: text, start: "2026-04-02T00:00:00Z", end: "2026-04-02T01:00:00Z" }),
      remove: (id) => eventBody({ operation: "delete", id }),
    },
    {
      name: "personal task",
      endpoint: "/api/task/V2",
      create: async () =>
        ok(
          await post(
            "/api/task/V2",
            `<feed ${TASK_NS}><cbl:operation type="insert"/><entry><title>k</title></entry></feed>`,
          ),
        ),
      entry: (id) => `/api/task/V2?entry=${id}`,
      update: (id, text) =>
        `<feed ${TASK_NS}><cbl:operation type="update"/><entry><id>${id}</id><title>${text}</title></entry></feed>`,
      remove: (id) => `<feed ${TASK_NS}><cbl:operation type="delete"/><entry><id>${id}</id></entry></feed>`,
    },
  ];

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    group = await server.factories.group([alice]);
  });
  after(() => server.close());

  const etagOf = async (path: string, identity = false): Promise<{ tag: string; body: string }> => {
    const headers: Record<string, string> = identity ? { "accept-encoding": "identity" } : {};
    const answer = await request(`${server.url}${path}`, { token: alice.token, headers });
    assert.equal(answer.status, 200, answer.text);
    const tag = answer.headers.get("etag");
    assert.ok(tag !== null && /^"[^"]+"$/.test(tag), `a strong tag: ${tag}`);
    return { tag, body: answer.text };
  };

  const NAMES = ["topic", "comment", "group event", "personal event", "personal task"];
  for (const [index, name] of NAMES.entries()) {
    describe(name, () => {
      it("updates with the current tag, refuses a stale one with 412 and the current entry", async () => {
        const resource = resources()[index]!;
        const id = await resource.create();
        const first = await etagOf(resource.entry(id), true);
        const matched = await post(resource.endpoint, resource.update(id, "second"), { "if-match": first.tag });
        assert.equal(matched.status, 200, `${resource.name}: ${matched.text}`);
        const now = await etagOf(resource.entry(id), true);
        assert.notEqual(now.tag, first.tag, `${resource.name}: the update changed the tag`);

        const stale = await post(resource.endpoint, resource.update(id, "third"), { "if-match": first.tag });
        assert.equal(stale.status, 412, `${resource.name}: ${stale.text}`);
        assert.equal(stale.headers.get("etag"), now.tag);
        assert.match(stale.headers.get("content-type") ?? "", /^application\/atom\+xml/);
        assert.equal(stale.text, now.body, `${resource.name}: the 412 carries the entry as entry= answers it`);
        assert.equal((await etagOf(resource.entry(id), true)).tag, now.tag, "nothing changed");

        // A list of tags, one of them current; a compressed variant's tag names the same entry.
        const listed = await post(resource.endpoint, resource.update(id, "fourth"), {
          "if-match": `"nope", ${now.tag.slice(0, -1)}.gzip"`,
        });
        assert.equal(listed.status, 200, `${resource.name}: ${listed.text}`);
        // A weak tag never matches (strong comparison, RFC 9110 §13.1.1).
        const current = await etagOf(resource.entry(id), true);
        const weak = await post(resource.endpoint, resource.update(id, "fifth"), { "if-match": `W/${current.tag}` });
        assert.equal(weak.status, 412, `${resource.name}: ${weak.text}`);
        // `*`: any current item.
        const star = await post(resource.endpoint, resource.update(id, "sixth"), { "if-match": "*" });
        assert.equal(star.status, 200, `${resource.name}: ${star.text}`);
      });

      it("deletes with the current tag only; `*` on an item that is gone is the write's own 404", async () => {
        const resource = resources()[index]!;
        const id = await resource.create();
        const first = await etagOf(resource.entry(id));
        assert.equal((await post(resource.endpoint, resource.update(id, "changed"), {})).status, 200);
        const stale = await post(resource.endpoint, resource.remove(id), { "if-match": first.tag });
        assert.equal(stale.status, 412, `${resource.name}: ${stale.text}`);
        assert.equal((await request(`${server.url}${resource.entry(id)}`, { token: alice.token })).status, 200, "kept");
        const current = await etagOf(resource.entry(id));
        const deleted = await post(resource.endpoint, resource.remove(id), { "if-match": current.tag });
        assert.equal(deleted.status, 200, `${resource.name}: ${deleted.text}`);
        const again = await post(resource.endpoint, resource.remove(id), { "if-match": "*" });
        assert.equal(again.status, 404, `${resource.name}: ${again.text}`);
        const updateGone = await post(resource.endpoint, resource.update(id, "x"), { "if-match": current.tag });
        assert.equal(updateGone.status, 404, `${resource.name}: ${updateGone.text}`);
      });
    });
  }
});
