// Validates documents against RFC 4287's RELAX NG schema (test/fixtures/atom.rng) with libxml2
// compiled to WebAssembly (xmllint-wasm): nothing to install on the machine, no JVM.
//
// xmllint-wasm runs every validation in a fresh worker thread, and a worker inherits the parent's
// `--import tsx`, which triples its start-up (about 125 ms per validation instead of 50). So the
// calls are made from one long-lived plain-JavaScript helper thread started with no exec
// arguments; the schema text is read once and handed to it with every request. The helper is
// unref'd while idle so that it never keeps a finished test process alive.
import { AssertionError } from "node:assert";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { XMLLintOptions, XMLValidationResult } from "xmllint-wasm";

const SCHEMA_URL = new URL("../fixtures/atom.rng", import.meta.url);
const SHOWN_DOCUMENT_CHARS = 2_000;

const HELPER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { validateXML } = require(workerData.xmllint);
parentPort.on("message", ({ id, options }) => {
  validateXML(options).then(
    (result) => parentPort.postMessage({ id, result }),
    (error) => parentPort.postMessage({ id, error: String((error && error.message) || error) }),
  );
});`;

type Reply =
  { readonly id: number; readonly result: XMLValidationResult } | { readonly id: number; readonly error: string };

let schema: Promise<string> | undefined;
let helper: Worker | undefined;
let nextId = 0;
const pending = new Map<number, (reply: Reply) => void>();

/** Resolves when `xml` is a valid Atom feed or entry document; otherwise fails with libxml2's messages. */
export async function assertValidAtom(xml: string): Promise<void> {
  const reply = await validate(xml);
  if ("error" in reply) {
    // Not well-formed input, or a schema that does not compile: xmllint-wasm rejects instead of resolving.
    throw failure(`xmllint could not validate the document:\n  ${reply.error.trim()}`, xml);
  }
  if (reply.result.valid) return;
  const lines = reply.result.rawOutput
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.endsWith(" fails to validate"));
  throw failure(`Not valid Atom (RFC 4287 RELAX NG schema, libxml2 says):\n  ${lines.join("\n  ")}`, xml);
}

async function validate(xml: string): Promise<Reply> {
  schema ??= readFile(SCHEMA_URL, "utf8");
  const options: XMLLintOptions = {
    xml: [{ fileName: "document.xml", contents: xml }],
    schema: [{ fileName: "atom.rng", contents: await schema }],
    extension: "relaxng",
  };
  const worker = startHelper();
  const id = nextId++;
  return new Promise<Reply>((resolve) => {
    pending.set(id, resolve);
    worker.ref();
    worker.postMessage({ id, options });
  });
}

function startHelper(): Worker {
  if (helper !== undefined) return helper;
  const xmllint = createRequire(import.meta.url).resolve("xmllint-wasm");
  const worker = new Worker(HELPER_SOURCE, { eval: true, execArgv: [], workerData: { xmllint } });
  worker.unref();
  worker.on("message", (reply: Reply) => {
    pending.get(reply.id)?.(reply);
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
  });
  worker.on("error", (error) => settleAll(`the validator thread failed: ${error.message}`));
  worker.on("exit", (code) => {
    helper = undefined;
    settleAll(`the validator thread exited with code ${code}`);
  });
  helper = worker;
  return worker;
}

function settleAll(error: string): void {
  for (const [id, resolve] of pending) resolve({ id, error });
  pending.clear();
}

function failure(summary: string, xml: string): AssertionError {
  const shown = xml.length > SHOWN_DOCUMENT_CHARS ? `${xml.slice(0, SHOWN_DOCUMENT_CHARS)}…` : xml;
  return new AssertionError({ message: `${summary}\n--- document ---\n${shown}` });
}
