// docs/api.md stays complete: it names every route the server registers and every error code the
// source can throw. Each check is also run against a made-up omission, so a checker that could
// never fail would be caught here too.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, before, describe, it } from "node:test";
import { registeredEndpoints } from "../../src/http-kit/route.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { missingNames, missingRoutes, scanErrorCodes, sourceFiles, undocumentedTreePaths } from "./doc-coverage.js";
import { CHECKOUT } from "../support/checkout.js";

const ROOT = CHECKOUT;
const API_DOC = readFileSync(join(ROOT, "docs/api.md"), "utf8");

// engines: sqlite only, because it compares docs/api.md with the routes and error codes the server
// registers, which are the same whichever engine is under it.
describe("docs/api.md", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  it("names every route of the route table, method by method", () => {
    const endpoints = registeredEndpoints(server.app);
    assert.ok(endpoints.length > 20, "the route table is read");
    assert.deepEqual(missingRoutes(endpoints, API_DOC), [], "routes missing from docs/api.md");
  });

  it("names every path of Fastify's own route tree (routes registered outside the table too)", () => {
    const tree = server.app.printRoutes({ commonPrefix: false });
    assert.deepEqual(undocumentedTreePaths(tree, API_DOC), [], "paths missing from docs/api.md");
  });

  it("names every error code and OAuth problem the source can throw", () => {
    const scan = scanErrorCodes(sourceFiles(join(ROOT, "src")));
    assert.deepEqual(scan.unresolved, [], "codes computed where the scan cannot follow them: use literals");
    assert.ok(scan.codes.has("TOPIC_TITLE_TOO_LONG") && scan.codes.has("TOPIC_BEING_EDITED"), "the scan finds codes");
    assert.deepEqual(missingNames(scan.codes, API_DOC), [], "error codes missing from docs/api.md");
    assert.deepEqual(missingNames(scan.problems, API_DOC), [], "oauth_problem names missing from docs/api.md");
  });
});

describe("the completeness checks catch an omission", () => {
  const doc = "`GET /api/board/V2` `GET /settings` `GET /` and `TOPIC_NOT_FOUND`";

  it("a route added without documentation", () => {
    const endpoints = [
      { url: "/api/board/V2", methods: ["GET", "POST"] as const, public: false },
      { url: "/api/madeUp/V2", methods: ["GET"] as const, public: false },
      { url: "/settings", methods: ["GET"] as const, public: false },
      { url: "/m/settings", methods: ["GET"] as const, public: false },
      { url: "/m", methods: ["GET"] as const, public: false },
    ];
    assert.deepEqual(missingRoutes(endpoints, doc), ["POST /api/board/V2", "GET /api/madeUp/V2"]);
  });

  it("a path in Fastify's tree that no documented route has", () => {
    const tree = [
      "└── / (GET, HEAD)",
      "    ├── api/board/V2 (GET, HEAD, POST)",
      "    ├── healthz (GET, HEAD)",
      "    └── settings (GET, HEAD)",
      "        └── /:id/revoke (POST)",
    ].join("\n");
    assert.deepEqual(undocumentedTreePaths(tree, doc), ["/healthz", "/settings/:id/revoke"]);
  });

  it("an error code thrown without documentation, however it is passed", () => {
    const dir = mkdtempSync(join(tmpdir(), "kairan-doc-"));
    try {
      const errors = relative(dir, join(ROOT, "src/domain/errors.js"));
      const file = join(dir, "made-up.ts");
      writeFileSync(
        file,
        [
          `import { ConflictError, ValidationError } from "${errors}";`,
          `export class HeldError extends ConflictError { constructor() { super("MADE_UP_HELD", "held"); } }`,
          `function refuse(code: string): never { throw new ValidationError(code, "no"); }`,
          `export function a(): never { refuse("MADE_UP_PASSED"); }`,
          `export function b(flag: boolean): never { throw new ValidationError(flag ? "MADE_UP_A" : "MADE_UP_B", "no"); }`,
          `export function c(): never { throw new HeldError(); }`,
          `export function d(): never { throw new ValidationError("TOPIC_NOT_FOUND", "documented"); }`,
          `export function e(text: string): never { throw new ValidationError(text.toUpperCase(), "computed"); }`,
        ].join("\n"),
      );
      const scan = scanErrorCodes([file]);
      assert.deepEqual(missingNames(scan.codes, doc), ["MADE_UP_A", "MADE_UP_B", "MADE_UP_HELD", "MADE_UP_PASSED"]);
      assert.equal(scan.unresolved.length, 1, "a computed code is reported, not skipped");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
