// Request rate limits over real HTTP, at their boundary: per client address (through a trusted
// proxy's X-Forwarded-For, so one test machine can be many clients) and per token; 429 with an
// <error> document, Retry-After, and the draft-ietf-httpapi-ratelimit-headers fields.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { TestUser } from "../support/factories.js";
import { type Answer, assertError, request } from "../support/http.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";

/** The RateLimit field's items: policy -> { r, t }. */
function rateLimitItems(answer: Answer): Map<string, { r: number; t: number }> {
  const items = new Map<string, { r: number; t: number }>();
  for (const item of (answer.headers.get("ratelimit") ?? "").split(",").filter(Boolean)) {
    const match = /^\s*"(\w+)";r=(\d+);t=(\d+)\s*$/.exec(item);
    assert.ok(match, `RateLimit item ${item} is "policy";r=N;t=N`);
    items.set(match[1]!, { r: Number(match[2]), t: Number(match[3]) });
  }
  return items;
}

function assertRateLimited(answer: Answer, policy: "address" | "token"): void {
  assertError(answer, 429, "RATE_LIMITED");
  assert.match(answer.text, new RegExp(`from this ${policy}`));
  const retryAfter = Number(answer.headers.get("retry-after"));
  assert.ok(
    Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60,
    `Retry-After ${answer.headers.get("retry-after")}`,
  );
  assert.equal(rateLimitItems(answer).get(policy)?.r, 0);
  assert.equal(answer.headers.get("connection"), "close", "a refused request's body is not read");
}

describeEachBackend("rate limits per address and per token", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  const from = (address: string, token?: string) =>
    request(`${server.url}/api/group/V2`, { token, headers: { "x-forwarded-for": `203.0.113.9, ${address}` } });

  before(async () => {
    server = await startTestServer(backend, {
      limits: {
        noRateLimit: false,
        rateLimitAddress: "5",
        rateLimitToken: "3",
        rateLimitWindow: "60",
        trustProxy: "127.0.0.1",
      },
    });
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    await server.factories.group([alice, bob]);
  });
  after(() => server.close());

  it("serves an address 5 requests a window and refuses the 6th with 429, Retry-After and RateLimit fields", async () => {
    for (let n = 1; n <= 5; n++) {
      const answer = await from("192.0.2.1");
      assertError(answer, 401, "AUTHENTICATION_REQUIRED");
      assert.equal(answer.headers.get("ratelimit-policy"), '"address";q=5;w=60, "token";q=3;w=60');
      const address = rateLimitItems(answer).get("address");
      assert.equal(address?.r, 5 - n, `request ${n}: remaining`);
      assert.ok(address && address.t >= 1 && address.t <= 60);
    }
    assertRateLimited(await from("192.0.2.1"), "address");
    assertRateLimited(await from("192.0.2.1", alice.token), "address");
    assert.equal((await from("192.0.2.2")).status, 401, "another address has its own quota");
  });

  it("counts the right-most untrusted X-Forwarded-For address, not the proxy's", async () => {
    for (let n = 0; n < 5; n++)
      await request(`${server.url}/api/group/V2`, { headers: { "x-forwarded-for": `192.0.2.50, 127.0.0.1` } });
    assertRateLimited(
      await request(`${server.url}/api/group/V2`, { headers: { "x-forwarded-for": "192.0.2.50" } }),
      "address",
    );
  });

  it("serves a token 3 requests a window from any address and refuses the 4th; other tokens are unaffected", async () => {
    for (let n = 1; n <= 3; n++) {
      const answer = await from(`198.51.100.${n}`, alice.token);
      assert.equal(answer.status, 200, answer.text);
      assert.equal(rateLimitItems(answer).get("token")?.r, 3 - n);
    }
    assertRateLimited(await from("198.51.100.10", alice.token), "token");
    assert.equal((await from("198.51.100.11", bob.token)).status, 200, "Bob's token has its own quota");
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", async () => {
    const direct = await startTestServer(backend, { limits: { noRateLimit: false, rateLimitAddress: "2" } });
    try {
      const spoof = (address: string) =>
        request(`${direct.url}/api/group/V2`, { headers: { "x-forwarded-for": address } });
      assert.equal((await spoof("192.0.2.1")).status, 401);
      assert.equal((await spoof("192.0.2.2")).status, 401);
      assertRateLimited(await spoof("192.0.2.3"), "address");
    } finally {
      await direct.close();
    }
  });

  it("sends no RateLimit fields and refuses nothing when rate limiting is off", async () => {
    const off = await startTestServer(backend);
    try {
      for (let n = 0; n < 20; n++) {
        const answer = await request(`${off.url}/api/group/V2`);
        assert.equal(answer.status, 401);
        assert.equal(answer.headers.get("ratelimit"), null);
        assert.equal(answer.headers.get("ratelimit-policy"), null);
      }
    } finally {
      await off.close();
    }
  });
});
