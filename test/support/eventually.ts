import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * Waits for `condition` (polled every 20 ms), failing with `what` if it does not hold within
 * `limitMs`: a guard against a hang, never an assertion about speed.
 */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string,
  limitMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    assert.ok(Date.now() < deadline, `never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every file under `dir`, at any depth ([] when it does not exist). */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}
