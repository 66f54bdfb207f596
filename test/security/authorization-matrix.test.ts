// The authorization matrix: every API endpoint of the route table x each of its operations x
// every kind of caller. Strangers (no or dead credentials, other groups' members, invitees, former
// members) and members whose application's level is too low are refused with the status
// docs/api.md "Errors" and "Access levels" name, learn nothing of the secret group (no title, name or id in any
// body or header) and change nothing; the secret group's member at the needed level succeeds.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { parseXml } from "../../src/atom/parse.js";
import { ACCESS_LEVELS, levelAllows } from "../../src/domain/access.js";
import { type Endpoint, registeredEndpoints } from "../../src/http-kit/route.js";
import { describeEachBackend } from "../support/backends.js";
import type { Answer } from "../support/http.js";
import { MULTIPART_TYPE, multipartStream } from "../support/multipart.js";
import { type DataSnapshot, type Snapshotter, describeChange, openSnapshotter } from "../support/snapshot.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type Caller, type MatrixWorld, authorization, memberAt, seedMatrixWorld } from "./matrix-world.js";
import { OPERATIONS, type Operation, PUBLIC_ENDPOINTS, type Probe, genericOperations } from "./operations.js";

/**
 * The rows for one endpoint: its table entry, then generic probes for each method it answers
 * (the only rows of an endpoint the table does not describe yet).
 */
function operationsOf(endpoint: Endpoint): readonly Operation[] {
  const listed = OPERATIONS.get(endpoint.url) ?? [];
  if (listed.length > 0) {
    for (const method of endpoint.methods) {
      assert.ok(
        listed.some((op) => op.method === method),
        `${endpoint.url} answers ${method}, but the matrix lists no ${method} operation for it`,
      );
    }
  }
  return [...listed, ...endpoint.methods.flatMap((method) => genericOperations(method))];
}

async function bytesOf(probe: Probe): Promise<{ body?: Buffer | string; contentType?: string }> {
  if (probe.parts === undefined)
    return probe.body === undefined ? {} : { body: probe.body, contentType: "application/atom+xml; charset=utf-8" };
  const chunks: Buffer[] = [];
  for await (const chunk of multipartStream(probe.parts)) chunks.push(chunk as Buffer);
  return { body: Buffer.concat(chunks), contentType: MULTIPART_TYPE };
}

async function call(
  world: MatrixWorld,
  endpoint: Endpoint,
  op: Operation,
  caller: Caller,
  proper: boolean,
): Promise<{ answer: Answer; sent: string }> {
  const probe = await op.probe(world, proper);
  const url = `${world.server.url}${endpoint.url}${probe.query ? `?${probe.query}` : ""}`;
  const { body, contentType } = await bytesOf(probe);
  const headers: Record<string, string> = { ...authorization(world, caller.credentials, op.method, url) };
  if (contentType !== undefined) headers["content-type"] = contentType;
  const controller = new AbortController();
  const response = await fetch(url, { method: op.method, headers, body, signal: controller.signal });
  const streaming = (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
  const text = streaming ? await beginningOf(response, controller) : await response.text();
  const answer: Answer = {
    status: response.status,
    headers: response.headers,
    text,
    get xml() {
      return parseXml(text);
    },
  };
  return { answer, sent: `${url}\n${typeof body === "string" ? body : ""}` };
}

/** The first chunk of an answer that never ends (a live stream), then the connection is dropped. */
async function beginningOf(response: Response, controller: AbortController): Promise<string> {
  const reader = response.body?.getReader();
  const chunk = await reader?.read();
  controller.abort();
  return new TextDecoder().decode(chunk?.value ?? new Uint8Array());
}

/** What is wrong with a stranger's or a low-level member's answer ("" when it is right). */
function misjudged(world: MatrixWorld, op: Operation, caller: Caller, answer: Answer, sent: string): string {
  const problems: string[] = [];
  const { role } = caller;
  const code = /^<\?xml[^>]*>\s*<error code="([^"]*)"/.exec(answer.text)?.[1];
  const expect = (status: number, what: string | undefined, got: string | undefined) => {
    if (answer.status !== status || got !== what)
      problems.push(`expected ${status} ${what ?? ""}, got ${answer.status} ${got ?? answer.text.slice(0, 120)}`);
  };
  if (role.kind === "unauthenticated") {
    const problem = new URLSearchParams(answer.text).get("oauth_problem") ?? undefined;
    expect(401, role.answer, /^[a-z_]+$/.test(role.answer) ? problem : code);
    if (!/^OAuth realm=/.test(answer.headers.get("www-authenticate") ?? ""))
      problems.push("401 without WWW-Authenticate");
  } else if (role.kind === "member") {
    expect(403, "ACCESS_LEVEL_INSUFFICIENT", code);
  } else if (op.scope === "group") {
    expect(op.refusal?.status ?? 403, op.refusal?.code ?? "GROUP_NOT_JOINED", code);
  } else if (op.scope === "room" || op.scope === "mine") {
    expect(404, "NOT_FOUND", code);
  } else if (op.scope === "personal") {
    expect(404, "TASK_NOT_FOUND", code);
  } else if (op.scope === "people") {
    expect(400, "CHAT_MEMBER_INVALID", code);
  } else if (op.scope === "own") {
    if (answer.status !== 200)
      problems.push(`expected 200 (their own data), got ${answer.status} ${answer.text.slice(0, 120)}`);
  } else if (answer.status >= 500 || (answer.status >= 400 && code === undefined)) {
    problems.push(`expected a success or an <error> refusal, got ${answer.status} ${answer.text.slice(0, 120)}`);
  }
  const visible = `${[...answer.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n${answer.text}`;
  for (const secret of world.secrets) if (visible.includes(secret)) problems.push(`leaks "${secret}"`);
  for (const id of world.secretIds) {
    if (!sent.includes(id) && new RegExp(`${id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![0-9])`).test(visible))
      problems.push(`leaks the id ${id}`);
  }
  return problems.join("; ");
}

/** Every row of one operation: the strangers, each too-low level, then the proper member; returns what went wrong. */
async function runOperation(
  world: MatrixWorld,
  endpoint: Endpoint,
  op: Operation,
  changes: ChangeTracker,
  tally: { requests: number; refused: number },
): Promise<string[]> {
  const below = ACCESS_LEVELS.filter((level) => !levelAllows(level, op.need)).map((level) => memberAt(world, level));
  const failures: string[] = [];
  for (const caller of [...world.strangers, ...below]) {
    const { answer, sent } = await call(world, endpoint, op, caller, false);
    const change = await changes.sinceLast();
    tally.requests += 1;
    if (answer.status >= 400) tally.refused += 1;
    const wrong = [misjudged(world, op, caller, answer, sent), change === "" ? "" : `changed data: ${change}`]
      .filter(Boolean)
      .join("; ");
    if (wrong !== "") failures.push(`${caller.name}: ${wrong}`);
  }
  // The positive control: without it a matrix that refuses everything would pass.
  if (op.scope !== "unknown") {
    const proper = memberAt(world, op.need);
    const { answer } = await call(world, endpoint, op, proper, true);
    await changes.sinceLast();
    tally.requests += 1;
    if (answer.status !== 200)
      failures.push(`${proper.name}: expected 200, got ${answer.status} ${answer.text.slice(0, 160)}`);
    const shown = op.shows?.(world);
    if (shown !== undefined && !answer.text.includes(shown))
      failures.push(`${proper.name}: the answer does not show "${shown}"`);
  }
  return failures;
}

/** Snapshots after each request: what the last one changed. */
interface ChangeTracker {
  sinceLast(): Promise<string>;
}

function changeTracker(snapshots: Snapshotter, first: DataSnapshot): ChangeTracker {
  let last = first;
  return {
    async sinceLast() {
      const now = await snapshots.take();
      const change = describeChange(last, now);
      last = now;
      return change;
    },
  };
}

describeEachBackend("authorization matrix: every endpoint x operation x caller", (backend) => {
  let server: TestServer;
  let world: MatrixWorld;
  let snapshots: Snapshotter;
  let changes: ChangeTracker;
  const tally = { requests: 0, refused: 0 };

  before(async () => {
    server = await startTestServer(backend);
    world = await seedMatrixWorld(server, "SECRET-7f3a");
    snapshots = openSnapshotter(server);
    changes = changeTracker(snapshots, await snapshots.take());
  });
  after(async () => {
    await snapshots?.close();
    await server?.close();
  });

  it("knows which endpoints are public: they answer every stranger alike, show nothing and change nothing", async () => {
    const open = registeredEndpoints(server.app).filter((e) => e.public);
    assert.deepEqual(open.map((e) => e.url).sort(), [...PUBLIC_ENDPOINTS].sort());
    for (const endpoint of open) {
      const url = `${world.server.url}${endpoint.url}`;
      const answers = new Set<string>();
      for (const caller of [...world.strangers, memberAt(world, "Z")]) {
        const response = await fetch(url, { headers: authorization(world, caller.credentials, "GET", url) });
        const text = await response.text();
        assert.equal(response.status, 200, `${caller.name}: ${endpoint.url}`);
        answers.add(`${response.headers.get("content-type")}\n${text}`);
        for (const secret of world.secrets) assert.ok(!text.includes(secret), `${endpoint.url} shows "${secret}"`);
        assert.equal(await changes.sinceLast(), "");
      }
      assert.equal(answers.size, 1, `${endpoint.url} answers everyone the same`);
    }
  });

  it("refuses every stranger and every too-low level, leaks nothing, changes nothing; the proper member succeeds", async (t) => {
    const endpoints = registeredEndpoints(server.app).filter((e) => e.url.startsWith("/api/"));
    assert.ok(endpoints.length >= 10, "the route table lists the API");
    const generic = endpoints.filter((e) => !OPERATIONS.has(e.url)).map((e) => e.url);
    if (generic.length > 0)
      t.diagnostic(`generic probes only (add their operations to test/security/operations.ts): ${generic.join(", ")}`);
    const waiting = [...OPERATIONS.keys()].filter((url) => !endpoints.some((e) => e.url === url));
    if (waiting.length > 0) t.diagnostic(`listed but not registered (yet): ${waiting.join(", ")}`);
    for (const endpoint of endpoints) {
      for (const op of operationsOf(endpoint)) {
        await t.test(`${op.method} ${endpoint.url}: ${op.name} (needs ${op.need})`, async () => {
          assert.deepEqual(await runOperation(world, endpoint, op, changes, tally), []);
        });
      }
    }
    t.diagnostic(
      `authorization matrix [${backend}]: ${tally.requests} requests over ${endpoints.length} endpoints, ${tally.refused} refused`,
    );
  });
});
