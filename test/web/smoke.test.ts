import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describe("smoke", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());
  it("signs in and shows pages", async () => {
    const f = server.factories;
    const alice = await f.user({ name: "Alice" });
    const group = await f.group([alice]);
    const topic = await f.topic(group, alice, { title: "Hello", body: "World" });
    await f.comment(topic, alice, { body: "first" });
    const web = new WebClient(server.url);
    const signin = await web.get("/signin");
    await assertValidHtml(signin.html, "signin");
    await web.signIn(alice.email);
    for (const path of ["/", `/g/1:${group.id}/board`, `/g/1:${group.id}/board/1:${topic.id}`, `/g/1:${group.id}/tasks`, `/g/1:${group.id}/files`, `/g/1:${group.id}/members`, "/favorites", "/settings", `/g/1:${group.id}/board/new`, `/g/1:${group.id}/board/1:${topic.id}/edit`]) {
      const page = await web.get(path);
      assert.equal(page.status, 200, `${path}: ${page.html.slice(0, 2000)}`);
      await assertValidHtml(page.html, path);
    }
  });
});
