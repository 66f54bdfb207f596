// The stylesheet and the small script of the web interface, served from our own origin (the
// pages' Content-Security-Policy allows nothing else) and read once at start.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** One static file in memory. */
export interface Asset {
  readonly body: Buffer;
  readonly contentType: string;
}

/** The static files by name, and a version that changes when any of them does. */
export interface Assets {
  readonly files: ReadonlyMap<string, Asset>;
  readonly version: string;
}

const STATIC_DIR = new URL("./static/", import.meta.url);
const FILES: Readonly<Record<string, string>> = {
  "app.css": "text/css; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "passkeys.js": "text/javascript; charset=utf-8",
};

/** Reads the static files (next to this module in src/ and in dist/). */
export function loadAssets(): Assets {
  const files = new Map<string, Asset>();
  const hash = createHash("sha256");
  for (const [name, contentType] of Object.entries(FILES)) {
    const body = readFileSync(fileURLToPath(new URL(name, STATIC_DIR)));
    hash.update(body);
    files.set(name, { body, contentType });
  }
  return { files, version: hash.digest("base64url").slice(0, 10) };
}
