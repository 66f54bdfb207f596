// The setup page's refusals over real HTTP (the printed line and the happy path are in
// test/cli/first-run.test.ts): unknown links, bad fields, a forged form, and an account made
// meanwhile; none of them makes an account.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { ACCOUNT_MAIL_LIMITS } from "../../src/domain/account-link.js";
import { beginFirstRun } from "../../src/services/account/first-run.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describeEachBackend("web: the first run's setup page", (backend) => {
  let server: TestServer;
  let path: string;

  before(async () => {
    server = await startTestServer(backend);
    const link = await beginFirstRun(server);
    assert.ok(link);
    path = `/setup/${link.secret}`;
  });
  after(() => server.close());

  const accounts = () => server.store.read((tx) => tx.users.list());

  it("refuses unknown and malformed links with a clear page", async () => {
    for (const bad of ["/setup/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "/setup/x", "/m/setup/%20"]) {
      const answer = await new WebClient(server.url).get(bad);
      assert.equal(answer.status, 404, bad);
      assert.match(answer.html, /This link is not valid/);
      await assertValidHtml(answer.html, "unknown setup link");
    }
  });

  it("refuses bad fields and a forged form, making nothing", async () => {
    const web = new WebClient(server.url);
    await web.get(path);
    for (const [fields, pattern] of [
      [{ name: "", email: "a@example.com", password: "abcdefgh", repeat: "abcdefgh" }, /name is missing/],
      [{ name: "A", email: "a@", password: "abcdefgh", repeat: "abcdefgh" }, /is not an e-mail address/],
      [{ name: "A", email: "a@example.com", password: "short", repeat: "short" }, /at least 8 characters/],
      [{ name: "A".repeat(101), email: "a@example.com", password: "abcdefgh", repeat: "abcdefgh" }, /longer than 100/],
    ] as const) {
      const answer = await web.post(path, fields);
      assert.equal(answer.status, 400, JSON.stringify(fields));
      assert.match(answer.html, pattern);
    }
    const forged = await new WebClient(server.url).post(path, {
      name: "A",
      email: "a@example.com",
      password: "abcdefgh",
      repeat: "abcdefgh",
      _csrf: "x",
    });
    assert.equal(forged.status, 403);
    assert.deepEqual(await accounts(), []);
  });

  it("works until its end, exclusive", async () => {
    const link = await beginFirstRun(server);
    assert.ok(link);
    const web = new WebClient(server.url);
    server.clock.advance(ACCOUNT_MAIL_LIMITS.setupMs - 1);
    assert.equal((await web.get(`/setup/${link.secret}`)).status, 200);
    server.clock.advance(1);
    const expired = await web.get(`/setup/${link.secret}`);
    assert.equal(expired.status, 400);
    assert.match(expired.html, /expired/);
    assert.doesNotMatch(expired.html, /Ask for a new link/, "a setup link comes from a restart, not a form");
    server.clock.advance(-ACCOUNT_MAIL_LIMITS.setupMs);
  });

  it("says the server is set up once an account exists, and makes no second administrator", async () => {
    const web = new WebClient(server.url);
    await web.get(path);
    const csrf = web.csrf();
    await server.factories.user({ name: "Operator's" });
    const shown = await web.get(path);
    assert.equal(shown.status, 400);
    assert.match(shown.html, /set up already/);
    const post = await web.post(
      path,
      { name: "B", email: "b@example.com", password: "abcdefgh", repeat: "abcdefgh" },
      { csrf },
    );
    assert.equal(post.status, 400);
    assert.equal((await accounts()).length, 1);
    assert.deepEqual(await server.store.read((tx) => tx.users.listAdminIds()), []);
    assert.equal(await beginFirstRun(server), undefined, "no new link once an account exists");
  });
});
