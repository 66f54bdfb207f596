// axe-core, the accessibility engine, run inside a page the way its own browser extension runs
// it: the script comes from node_modules (never the network) and is added to the page under test.
// The pages' Content-Security-Policy allows no inline script, so the contexts that run it are
// opened with `bypassCSP` (only they: every other test keeps the policy).
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE_SCRIPT = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** The impacts that fail a page; "minor" and "moderate" findings are reported by axe but tolerated. */
const FAILING = new Set(["serious", "critical"]);

interface AxeNode {
  readonly target: readonly unknown[];
  readonly failureSummary?: string;
}
interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly AxeNode[];
}

/**
 * Runs axe-core on the page as it is now and returns its serious and critical violations, one
 * line each (rule, help text, the elements it found and why), ready for an assertion message.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  if ((await page.evaluate<string>("typeof window.axe")) !== "object") await page.addScriptTag({ path: AXE_SCRIPT });
  const violations = await page.evaluate<AxeViolation[]>(
    `axe.run(document, { resultTypes: ["violations"] }).then((result) => result.violations)`,
  );
  return violations
    .filter((v) => FAILING.has(v.impact ?? ""))
    .map((v) => {
      const nodes = v.nodes
        .slice(0, 5)
        .map((n) => `    ${JSON.stringify(n.target)}: ${(n.failureSummary ?? "").replace(/\s+/g, " ")}`)
        .join("\n");
      return `${v.impact} ${v.id}: ${v.help} (${v.nodes.length} elements)\n${nodes}`;
    });
}
