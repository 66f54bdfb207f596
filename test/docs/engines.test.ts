// Every suite that opens a store runs on both engines (SQLite, and PostgreSQL when
// KAIRAN_TEST_DATABASE_URL is set), or says in a comment above it why it does not:
//
//     // engines: sqlite only, because <the reason>
//     describe("...", () => { ... });
//
// (`postgres only`, or `both` for a suite that opens one store of each engine itself.)
// A suite runs on both when it is a describeEachBackend(...), sits in a loop over testBackends(),
// or loops over them itself. The files are read with TypeScript's parser, one top-level statement
// at a time; the check also runs against made-up files, so it is known to catch a one-engine suite.
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import ts from "typescript";
import { CHECKOUT } from "../support/checkout.js";

const ROOT = CHECKOUT;

/** Calls that open a store (in this process): the test server, a test store, the store itself. */
const OPENERS = ["startTestServer", "openTestStore", "openStore", "openSqliteStore", "openPostgresStore"];
/** What makes a suite run once per engine. */
const EACH_ENGINE = /\bdescribeEachBackend\s*\(|\btestBackends\s*\(\s*\)/;
/** The written reason of a suite that runs on one engine. */
const MARKER = /\/\/ engines: (sqlite only|postgres only|both), because \S.{9,}/;
const SUITE_CALLS = new Set(["describe", "suite", "it", "test"]);

/** A top-level suite that opens a store on one engine only, without a written reason. */
export interface OneEngineSuite {
  readonly file: string;
  readonly line: number;
  readonly name: string;
}

function callee(node: ts.Node): string | undefined {
  if (!ts.isExpressionStatement(node) || !ts.isCallExpression(node.expression)) return undefined;
  let target: ts.Expression = node.expression.expression;
  // describe.skip(...), it.only(...)
  while (ts.isPropertyAccessExpression(target)) target = target.expression;
  return ts.isIdentifier(target) ? target.text : undefined;
}

function suiteName(node: ts.Node, source: ts.SourceFile): string {
  const call = (node as ts.ExpressionStatement).expression as ts.CallExpression;
  const first = call.arguments[0];
  return first && ts.isStringLiteralLike(first) ? first.text : first ? first.getText(source) : "?";
}

/** Names of the file's own functions that open a store, directly or through another of them. */
function openersOf(source: ts.SourceFile): RegExp {
  const names = new Set(OPENERS);
  const defined: { name: string; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) && node.name) defined.push({ name: node.name.text, text: node.getText(source) });
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer)
      if (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
        defined.push({ name: node.name.text, text: node.initializer.getText(source) });
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (let grew = true; grew;) {
    grew = false;
    const pattern = callPattern(names);
    for (const { name, text } of defined)
      if (!names.has(name) && pattern.test(text)) {
        names.add(name);
        grew = true;
      }
  }
  return callPattern(names);
}

function callPattern(names: Iterable<string>): RegExp {
  return new RegExp(`\\b(${[...names].join("|")})\\s*[(<]`);
}

/** The suites of one file's text that open a store on one engine without saying why. */
export function oneEngineSuites(file: string, text: string): OneEngineSuite[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const opens = openersOf(source);
  return source.statements.flatMap((statement) => {
    const name = callee(statement);
    if (name === undefined || !SUITE_CALLS.has(name)) return [];
    const body = statement.getText(source);
    if (!opens.test(body) || EACH_ENGINE.test(body)) return [];
    const comments = text.slice(statement.getFullStart(), statement.getStart(source));
    if (MARKER.test(comments)) return [];
    const line = source.getLineAndCharacterOfPosition(statement.getStart(source)).line + 1;
    return [{ file, line, name: suiteName(statement, source) }];
  });
}

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith(".test.ts") ? [relative(ROOT, path)] : [];
  });
}

describe("every suite runs on both engines", () => {
  it("no suite that opens a store runs on one engine without a written reason", () => {
    const files = testFiles(join(ROOT, "test"));
    assert.ok(files.length > 100, `the test files are found (${files.length})`);
    const found = files.flatMap((file) => oneEngineSuites(file, readFileSync(join(ROOT, file), "utf8")));
    assert.deepEqual(
      found.map((suite) => `${suite.file}:${suite.line} ${suite.name}`),
      [],
      "wrap these in describeEachBackend (test/support/backends.ts), or write `// engines: sqlite only, because ...` above",
    );
  });

  it("tells a one-engine suite from one per engine and from one with its reason", () => {
    const file = (body: string) => oneEngineSuites("f.test.ts", body).map((suite) => suite.name);
    const bare = `describe("bare", () => { before(async () => { server = await startTestServer(); }); });`;
    assert.deepEqual(file(bare), ["bare"]);
    assert.deepEqual(file(`it.skip("alone", async () => { await openTestStore("sqlite"); });`), ["alone"]);
    // Through a helper of the file, two calls deep.
    const helper = `async function boot() { return startTestServer(); }\nconst again = () => boot();\n`;
    assert.deepEqual(file(`${helper}describe("helped", () => { before(() => again()); });`), ["helped"]);
    assert.deepEqual(file(`describeEachBackend("each", (backend) => { startTestServer(backend); });`), []);
    assert.deepEqual(file(`describe("loops", () => { for (const b of testBackends()) startTestServer(b); });`), []);
    assert.deepEqual(file(`// engines: sqlite only, because it reads the SQLite file itself\n${bare}`), []);
    assert.deepEqual(file(`// engines: sqlite only\n${bare}`), ["bare"], "a marker without its reason");
    assert.deepEqual(file(`describe("pure", () => { it("adds", () => 1 + 1); });`), []);
  });
});
