// The command line for another user. The tests that run `kairan` as another user (root's tests run
// it as nobody, to meet the permissions any other user meets) need that user to reach bin/, dist/
// and node_modules/; a clone under /root (mode 700 on Debian) is out of its reach.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
} from "node:fs";
import { join } from "node:path";
import { CHECKOUT } from "./checkout.js";

const ROOT = CHECKOUT;
/** What `node bin/kairan.js` loads: the compiled code, its package.json (ESM) and the dependencies. */
const NEEDED = ["bin", "dist", "node_modules", "package.json"];

/** Where `uid` runs the command line from, or why it cannot run it at all. */
export type CheckoutForUser = { readonly bin: string } | { readonly skip: string };

/**
 * This checkout's bin/kairan.js when `uid` can read what it loads; otherwise a copy of NEEDED (hard
 * links, or copies across file systems) made in `dir`, which is opened to everyone.
 */
export function checkoutForUser(uid: number, dir: () => string): CheckoutForUser {
  const asUser = (code: string) =>
    spawnSync(process.execPath, ["-e", code], { uid, gid: uid, cwd: "/", encoding: "utf8", timeout: 30_000 });
  const node = asUser("");
  if (node.status !== 0) {
    return { skip: `user ${uid} cannot run ${process.execPath} (${node.error?.message ?? node.stderr.trim()})` };
  }
  const probes = ["bin/kairan.js", "dist/cli/main.js", "node_modules/pg/package.json", "package.json"];
  const reads = probes.map((path) => `require("node:fs").readFileSync(${JSON.stringify(join(ROOT, path))})`);
  // The checkout's own bin/kairan.js: the compiled mirror `npm test` runs from is private (mode 700).
  if (asUser(reads.join(";")).status === 0) return { bin: join(ROOT, "bin", "kairan.js") };
  const copy = dir();
  chmodSync(copy, 0o755);
  for (const name of NEEDED) mirror(realpathSync(join(ROOT, name)), join(copy, name));
  return { bin: join(copy, "bin", "kairan.js") };
}

/** `from` at `to`: directories made anew (mode 755), files hard-linked or copied, links kept as they are. */
function mirror(from: string, to: string): void {
  const entries = (() => {
    try {
      return readdirSync(from, { withFileTypes: true });
    } catch {
      return undefined;
    }
  })();
  if (entries === undefined) return linkOrCopy(from, to);
  mkdirSync(to, { mode: 0o755 });
  for (const entry of entries) {
    const [source, target] = [join(from, entry.name), join(to, entry.name)];
    if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else if (entry.isDirectory()) mirror(source, target);
    else linkOrCopy(source, target);
  }
}

function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}
