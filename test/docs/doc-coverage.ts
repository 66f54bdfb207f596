// What docs/api.md must name, read from the code itself: the routes a running app has, and every
// error code (and OAuth problem) the source can throw. The checks are plain functions so the test
// can run them against made-up routes and sources too, proving they would catch an omission.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import type { Endpoint } from "../../src/http-kit/route.js";

/** `GET /path` for each method of each endpoint, as docs/api.md writes it (in backticks). */
export function routeLines(endpoints: readonly Endpoint[]): string[] {
  return endpoints.flatMap((endpoint) => endpoint.methods.map((method) => `${method} ${endpoint.url}`));
}

/**
 * Every web page is registered twice, at its path and under `/m` (the phone variant); the
 * document lists the page once and says so. `/m` and `/m/` are the phone home page `/`.
 */
export function desktopPath(url: string, registered: ReadonlySet<string>): string {
  if (url === "/m" || url === "/m/") return "/";
  if (url.startsWith("/m/") && registered.has(url.slice(2))) return url.slice(2);
  return url;
}

/** The routes (`METHOD /path`) of `endpoints` that `doc` does not name in backticks. */
export function missingRoutes(endpoints: readonly Endpoint[], doc: string): string[] {
  const registered = new Set(endpoints.map((endpoint) => endpoint.url));
  const wanted = endpoints.map((endpoint) => ({ ...endpoint, url: desktopPath(endpoint.url, registered) }));
  return [...new Set(routeLines(wanted))].filter((line) => !doc.includes(`\`${line}\``));
}

/** `:group`, `:topic|:item` and the like all become `:`, so paths compare by shape. */
function pathShape(path: string): string {
  return path.replace(/:[A-Za-z0-9_]+(\|:[A-Za-z0-9_]+)*/g, ":");
}

/**
 * The full paths in Fastify's `printRoutes({ commonPrefix: false })` tree: a child's segment is
 * appended to its parent's path. Catches routes registered without the project's route table.
 */
export function pathsOfRouteTree(tree: string): string[] {
  const stack: string[] = [];
  const paths: string[] = [];
  for (const line of tree.split("\n")) {
    const match = /^([│ ]*)[├└]── (.+?) \([A-Z, ]+\)$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path = (depth === 0 ? "" : stack[depth - 1]!) + match[2]!;
    stack[depth] = path;
    stack.length = depth + 1;
    paths.push(path);
  }
  return paths;
}

/** Paths of the route tree whose shape no `` `METHOD /path` `` of the document has. */
export function undocumentedTreePaths(tree: string, doc: string): string[] {
  const documented = new Set(
    [...doc.matchAll(/`(?:GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS) (\/[^`\s]*)`/g)].map((m) => pathShape(m[1]!)),
  );
  const phone = (path: string) => (path === "/m" || path === "/m/" ? "/" : path.replace(/^\/m(?=\/)/, ""));
  return pathsOfRouteTree(tree).filter(
    (path) => !documented.has(pathShape(path)) && !documented.has(pathShape(phone(path))),
  );
}

/** The error classes whose first constructor argument is the code a client sees. */
const CODE_CLASSES = new Set(["DomainError", "XmlParseError"]);

export interface CodeScan {
  /** `<error code=...>` codes. */
  readonly codes: ReadonlySet<string>;
  /** `oauth_problem` names. */
  readonly problems: ReadonlySet<string>;
  /** Places where a code is computed in a way the scan cannot follow (`file:line`). */
  readonly unresolved: readonly string[];
}

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  noLib: true,
  types: [],
};

/**
 * A compiler host that resolves only the project's own (relative) imports: codes are thrown by the
 * project's classes, and leaving out the libraries' type declarations (over a thousand files)
 * makes the scan several times faster.
 */
function projectOnlyHost(): ts.CompilerHost {
  const host = ts.createCompilerHost(OPTIONS);
  host.resolveModuleNames = (names, containingFile) =>
    names.map((name) =>
      name.startsWith(".") ? ts.resolveModuleName(name, containingFile, OPTIONS, host).resolvedModule : undefined,
    );
  return host;
}

/** Every `.ts` file under `dir`. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

function isCodeClass(type: ts.Type, checker: ts.TypeChecker): boolean {
  return isCodeClassSymbol(type.getSymbol(), checker);
}

/** By declarations, not types: a class is a code class when its `extends` chain reaches one. */
function isCodeClassSymbol(symbol: ts.Symbol | undefined, checker: ts.TypeChecker): boolean {
  if (!symbol) return false;
  if (CODE_CLASSES.has(symbol.getName())) return true;
  const declaration = symbol.valueDeclaration;
  const base =
    declaration && ts.isClassDeclaration(declaration) ? declaration.heritageClauses?.[0]?.types[0] : undefined;
  if (!base) return false;
  let parent = checker.getSymbolAtLocation(base.expression);
  if (parent && parent.flags & ts.SymbolFlags.Alias) parent = checker.getAliasedSymbol(parent);
  return isCodeClassSymbol(parent, checker);
}

/** String literal values an expression can take, as far as its type says (`"A" | "B"`). */
function literalValues(expression: ts.Expression, checker: ts.TypeChecker): string[] | undefined {
  if (ts.isStringLiteralLike(expression)) return [expression.text];
  const type = checker.getTypeAtLocation(expression);
  const parts = type.isUnion() ? type.types : [type];
  return parts.every((part) => part.isStringLiteral())
    ? parts.map((part) => (part as ts.StringLiteralType).value)
    : undefined;
}

/**
 * Reads the codes thrown in `files`: the first argument of `new X(...)` or `super(...)` for X a
 * subclass of DomainError or XmlParseError, and of `new OAuthProblem(...)`; literals in `code:`
 * properties (the framework tables of the HTTP edge); and, for a code passed in as a parameter,
 * the literals every caller passes.
 */
export function scanErrorCodes(files: readonly string[]): CodeScan {
  const program = ts.createProgram({ rootNames: [...files], options: OPTIONS, host: projectOnlyHost() });
  const checker = program.getTypeChecker();
  const codes = new Set<string>();
  const problems = new Set<string>();
  const unresolved: string[] = [];
  const where = (node: ts.Node) => {
    const file = node.getSourceFile();
    return `${file.fileName}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  };
  const record = (argument: ts.Expression | undefined, into: Set<string>) => {
    if (argument === undefined) return;
    const values = literalValues(argument, checker) ?? valuesOfParameter(argument, checker, program);
    if (values === undefined) {
      if (!(ts.isPropertyAccessExpression(argument) && argument.name.text === "code")) unresolved.push(where(argument));
      return;
    }
    for (const value of values) into.add(value);
  };
  const visit = (node: ts.Node) => {
    if (ts.isNewExpression(node)) {
      const type = checker.getTypeAtLocation(node);
      if (type.getSymbol()?.getName() === "OAuthProblem") record(node.arguments?.[0], problems);
      else if (isCodeClass(type, checker) && !fixesItsOwnCode(type)) record(node.arguments?.[0], codes);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword) {
      const owner = ts.findAncestor(node, ts.isClassDeclaration);
      const base = owner?.heritageClauses?.[0]?.types[0];
      const passedOn = isConstructorParameter(node.arguments[0], checker);
      if (base && !passedOn && isCodeClass(checker.getTypeAtLocation(base), checker)) record(node.arguments[0], codes);
    } else if (
      ts.isPropertyAssignment(node) &&
      node.name.getText() === "code" &&
      ts.isStringLiteral(node.initializer)
    ) {
      codes.add(node.initializer.text);
    }
    ts.forEachChild(node, visit);
  };
  for (const file of program.getSourceFiles()) if (files.includes(file.fileName)) visit(file);
  return { codes, problems, unresolved };
}

/** The first argument of a `super(...)` that only passes on the constructor's own parameter. */
function isConstructorParameter(argument: ts.Expression | undefined, checker: ts.TypeChecker): boolean {
  const declaration = argument && ts.isIdentifier(argument) && checker.getSymbolAtLocation(argument)?.valueDeclaration;
  return !!declaration && ts.isParameter(declaration) && ts.isConstructorDeclaration(declaration.parent);
}

/** A class whose constructor gives `super` a code of its own (`new X(lease)`): its `super` call is read instead. */
function fixesItsOwnCode(type: ts.Type): boolean {
  const declaration = type.getSymbol()?.valueDeclaration;
  if (!declaration || !ts.isClassDeclaration(declaration)) return false;
  const constructor = declaration.members.find(ts.isConstructorDeclaration);
  const call = constructor?.body?.statements
    .map((statement) => (ts.isExpressionStatement(statement) ? statement.expression : undefined))
    .find(
      (expression) =>
        expression && ts.isCallExpression(expression) && expression.expression.kind === ts.SyntaxKind.SuperKeyword,
    );
  const first = call && ts.isCallExpression(call) ? call.arguments[0] : undefined;
  return first !== undefined && ts.isStringLiteralLike(first);
}

/** For a code that is a parameter of its function: the literals every call of that function passes. */
function valuesOfParameter(
  expression: ts.Expression,
  checker: ts.TypeChecker,
  program: ts.Program,
): string[] | undefined {
  const declaration = ts.isIdentifier(expression)
    ? checker.getSymbolAtLocation(expression)?.valueDeclaration
    : undefined;
  if (!declaration || !ts.isParameter(declaration) || !ts.isFunctionDeclaration(declaration.parent)) return undefined;
  const fn = declaration.parent;
  const index = fn.parameters.indexOf(declaration);
  const fnSymbol = fn.name && checker.getSymbolAtLocation(fn.name);
  const values: string[] = [];
  let calls = 0;
  let followed = true;
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && fnSymbol && calledSymbol(node, checker) === fnSymbol) {
      calls += 1;
      const argument = node.arguments[index];
      const found = argument && literalValues(argument, checker);
      if (found) values.push(...found);
      else followed = false;
    }
    ts.forEachChild(node, visit);
  };
  for (const file of program.getSourceFiles()) if (!file.isDeclarationFile) visit(file);
  return followed && calls > 0 ? values : undefined;
}

/** The function a call names, through an import's alias to its declaration in another module. */
function calledSymbol(call: ts.CallExpression, checker: ts.TypeChecker): ts.Symbol | undefined {
  const symbol = checker.getSymbolAtLocation(call.expression);
  return symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/** The names of `names` that `doc` does not write in backticks. */
export function missingNames(names: Iterable<string>, doc: string): string[] {
  return [...names].filter((name) => !doc.includes(`\`${name}\``)).sort();
}
