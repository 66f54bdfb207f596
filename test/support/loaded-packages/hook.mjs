// The module resolution hook of register.mjs: it runs on node's loader thread and sees every ES
// import, static or dynamic, after tsx has resolved it.
const PACKAGE = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//;

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const name = PACKAGE.exec(resolved.url)?.[1];
  if (name !== undefined) process.stderr.write(`loaded-package ${name}\n`);
  return resolved;
}
