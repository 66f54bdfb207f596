// Libraries that only one feature uses are loaded when that feature is first used, never at a
// start (docs/architecture.md "Libraries of one feature load when first used"): every `kairan`
// command and every server start would otherwise pay for them (together about half a CPU-second).
// A fresh process with a resolution hook (test/support/loaded-packages) names what it loaded.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { it } from "node:test";

/** Loaded when used: passkeys, replies by mail (the SMTP listener, its parsers), the outbox listing, S3, pictures, sending mail. */
const LOADED_WHEN_USED = [
  "@simplewebauthn/server",
  "smtp-server",
  "mailparser",
  "email-reply-parser",
  "@aws-sdk/client-s3",
  "@aws-sdk/lib-storage",
  "sharp",
  "nodemailer",
  "archiver",
];

const REGISTER = fileURLToPath(new URL("../support/loaded-packages/register.mjs", import.meta.url));
const PROBE = fileURLToPath(new URL("../support/loaded-packages/probe.ts", import.meta.url));

/** The packages a fresh process loaded while the probe did `what`. */
function packagesLoadedBy(what: "start" | "s3"): Set<string> {
  const run = spawnSync(process.execPath, ["--import", "tsx", "--import", REGISTER, PROBE, what], {
    encoding: "utf8",
  });
  assert.equal(run.status, 0, run.stderr);
  return new Set([...run.stderr.matchAll(/^loaded-package (\S+)$/gm)].map((match) => match[1] ?? ""));
}

it("the probe sees what a module loads: the S3 blob store loads the AWS SDK", () => {
  const loaded = packagesLoadedBy("s3");
  assert.ok(loaded.has("@aws-sdk/client-s3"), [...loaded].join(", "));
});

it("loading the command line and starting a server loads none of the libraries of one feature", () => {
  const loaded = packagesLoadedBy("start");
  // What every start needs is there: the hook saw the start.
  for (const always of ["fastify", "kysely"]) assert.ok(loaded.has(always), `${always}: ${[...loaded].join(", ")}`);
  assert.deepEqual(
    LOADED_WHEN_USED.filter((name) => loaded.has(name)),
    [],
  );
});
