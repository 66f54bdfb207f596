#!/usr/bin/env node
// Part of `npm run build`: the web interface's templates and static files are not TypeScript,
// so tsc leaves them behind; they go next to the compiled code, where src/web/render.ts and
// src/web/assets.ts look for them (dist/web/templates, dist/web/static).
import { cpSync, rmSync } from "node:fs";

const root = new URL("..", import.meta.url);
for (const dir of ["templates", "static"]) {
  const to = new URL(`dist/web/${dir}/`, root);
  rmSync(to, { recursive: true, force: true });
  cpSync(new URL(`src/web/${dir}/`, root), to, { recursive: true });
}
