// Reads README.md's code blocks as a renderer would, so the README test runs the README as it is
// (no copy of its commands anywhere), and checks the answers the README shows under them.
import assert from "node:assert/strict";

/** A code block of the README: fenced (```sh) or indented by four spaces. */
export interface Block {
  /** The name given by the `<!-- readme-test: NAME -->` comment just before it (undefined: none). */
  readonly name: string | undefined;
  /** The fence's language (`sh`, `ts`), or "" for an indented block. */
  readonly lang: string;
  readonly text: string;
  /** 1-based line of README.md where the block starts. */
  readonly line: number;
}

const MARKER = /^\s*<!-- readme-test: ([a-z0-9-]+) -->\s*$/;
const FENCE = /^(\s*)```(\S*)\s*$/;

/**
 * Every code block of `markdown`, each with the marker comment that precedes it (only blank lines
 * may stand between). An indented block starts after a blank line with four more spaces than the
 * list item it is in (this README's list items indent their text by two).
 */
export function readmeBlocks(markdown: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  let name: string | undefined;
  let listIndent = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const marker = MARKER.exec(line);
    const fence = FENCE.exec(line);
    if (marker) {
      name = marker[1];
    } else if (fence) {
      const end = lines.findIndex((l, j) => j > i && l.trim() === "```");
      assert.ok(end > i, `README.md:${i + 1}: a fence that is never closed`);
      const indent = fence[1]?.length ?? 0;
      const text = lines.slice(i + 1, end).map((l) => l.slice(indent));
      blocks.push({ name, lang: fence[2] ?? "", text: text.join("\n"), line: i + 1 });
      name = undefined;
      i = end;
    } else if (indentOf(line) >= listIndent + 4 && line.trim() !== "" && (lines[i - 1] ?? "").trim() === "") {
      let end = i;
      while (end + 1 < lines.length && indentOf(lines[end + 1] ?? "") >= listIndent + 4) end++;
      const text = lines.slice(i, end + 1).map((l) => l.slice(listIndent + 4));
      blocks.push({ name, lang: "", text: text.join("\n"), line: i + 1 });
      name = undefined;
      i = end;
    } else if (line.trim() !== "") {
      name = undefined;
      if (/^- /.test(line)) listIndent = 2;
      else if (indentOf(line) === 0) listIndent = 0;
    }
  }
  return blocks;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** The answers a block shows: its lines `# ...` (a command's own trailing comment is not one). */
export function shownAnswers(block: Block): string[] {
  return block.text.split("\n").flatMap((line) => (line.startsWith("# ") ? [line.slice(2)] : []));
}

/**
 * Asserts that `output` has every answer `block` shows: a line of text is found as it is; a JSON
 * object (`{"users":{...},...}`, where `...` leaves the rest out) matches the first JSON line of
 * the output in every member it shows.
 */
export function assertShown(block: Block, output: string): void {
  for (const shown of shownAnswers(block)) {
    if (shown.startsWith("{")) {
      const expected = JSON.parse(shown.replace(/,\.\.\.}/g, "}")) as unknown;
      const line = output.split("\n").find((l) => l.startsWith("{"));
      assert.ok(line, `README.md:${block.line} shows ${shown}; the command printed no JSON:\n${output}`);
      assertContains(JSON.parse(line) as unknown, expected, `README.md:${block.line}`);
    } else {
      assert.ok(output.includes(shown), `README.md:${block.line} shows "${shown}"; the answer was:\n${output}`);
    }
  }
}

/** `actual` has every member of `expected`, recursively (objects may have more members). */
function assertContains(actual: unknown, expected: unknown, where: string): void {
  if (expected !== null && typeof expected === "object" && !Array.isArray(expected)) {
    assert.ok(actual !== null && typeof actual === "object", `${where}: expected an object, got ${String(actual)}`);
    for (const [key, value] of Object.entries(expected)) {
      assertContains((actual as Record<string, unknown>)[key], value, `${where} .${key}`);
    }
  } else {
    assert.deepEqual(actual, expected, where);
  }
}

/** The commands of a block without the answers it shows. */
export function commandsOf(block: Block): string {
  return block.text
    .split("\n")
    .filter((line) => !line.startsWith("# "))
    .join("\n");
}
