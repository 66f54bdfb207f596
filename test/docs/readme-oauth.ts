// The README's OAuth examples, run for real: each is assembled with the setup block into a module
// (BASE, CONSUMER_KEY and CONSUMER_SECRET from an application the README's own `kairan app add`
// registered) and run with tsx against the scratch server. The person's step of the three-legged
// flow is done as a browser does it: the module prints the sign-in address, the test opens it,
// signs in as Alice and approves, and types the verifier in.
import assert from "node:assert/strict";
import type { Block } from "./readme-blocks.js";
import { type Scratch, runTypeScript } from "./readme-scratch.js";

type Step = { readonly run: (block: Block, scratch: Scratch) => Promise<void> };

/** What the person does on the sign-in page: the answer is the verifier the callback receives. */
async function approve(address: string): Promise<string> {
  const page = await fetch(address);
  const html = await page.text();
  assert.equal(page.status, 200, html);
  const csrf = /name="csrf_token" value="([^"]*)"/.exec(html)?.[1] ?? assert.fail("the page has a form");
  const temporary = new URL(address).searchParams.get("oauth_token") ?? "";
  const fields = { oauth_token: temporary, csrf_token: csrf, email: "alice@example.com", password: "kairan-demo" };
  const answer = await fetch(address.slice(0, address.indexOf("?")), {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...fields, decision: "approve" }).toString(),
  });
  const landing = new URL(answer.headers.get("location") ?? assert.fail(`no redirect: ${answer.status}`), address);
  if (landing.pathname === "/oauth/verify") {
    // "Out of band: the page /oauth/verify shows the verifier (element id="oauth_verifier")."
    const shown = await (await fetch(landing)).text();
    return /id="oauth_verifier"[^>]*>([^<]+)</.exec(shown)?.[1]?.trim() ?? assert.fail(`no verifier on:\n${shown}`);
  }
  // "Approved: the browser lands on https://client.example/done?oauth_token=...&oauth_verifier=..."
  assert.equal(`${landing.origin}${landing.pathname}`, "https://client.example/done");
  assert.equal(landing.searchParams.get("oauth_token"), temporary);
  return landing.searchParams.get("oauth_verifier") ?? assert.fail(`no verifier in ${landing.href}`);
}

/** The module: the application's keys, the setup block, then `parts`. */
function assemble(scratch: Scratch, level: "write" | "Z", setup: Block, parts: readonly string[]): string {
  const key = scratch.values.get(`${level} consumer key`);
  const secret = scratch.values.get(`${level} consumer secret`);
  assert.ok(key && secret, "the app-add block ran first");
  return [
    `const BASE = ${JSON.stringify(scratch.server.url)};`,
    `const CONSUMER_KEY = ${JSON.stringify(key)};`,
    `const CONSUMER_SECRET = ${JSON.stringify(secret)};`,
    setup.text,
    ...parts,
  ].join("\n");
}

/** Runs a module that ends printing one JSON line; returns it parsed. */
async function runModule(
  source: string,
  onLine: (line: string) => Promise<string | undefined> = async () => undefined,
) {
  const result = await runTypeScript(source, onLine);
  assert.equal(result.status, 0, `${source}\n\nexited with ${result.status}:\n${result.stderr}`);
  const last = result.stdout.trim().split("\n").at(-1) ?? "";
  return JSON.parse(last) as Record<string, Record<string, string>>;
}

const printToken = "console.log(JSON.stringify({ token }));";
// The person's answer, typed in where the example's step 3 needs it (a real client gets it from its callback).
const readVerifier = [
  "const verifier = await new Promise<string>((resolve) =>",
  "  process.stdin.once('data', (data) => (process.stdin.destroy(), resolve(String(data).trim()))),",
  ");",
].join("\n");

function assertToken(token: Record<string, string> | undefined): Record<string, string> {
  assert.ok(token?.oauth_token && token.oauth_token_secret, `token credentials: ${JSON.stringify(token)}`);
  return token;
}

/** The four OAuth blocks; each finds the setup block among `blocks`. */
export function oauthSteps(blocks: readonly Block[]): Record<string, Step> {
  const setup = blocks.find((block) => block.name === "oauth-setup") ?? assert.fail("the OAuth setup block");
  return {
    "oauth-setup": {
      async run(_block, scratch) {
        // The setup alone loads and runs (it defines; the blocks below use it).
        const done = await runModule(assemble(scratch, "write", setup, ["console.log('{}');"]));
        assert.deepEqual(done, {});
      },
    },
    "oauth-three-legged": {
      async run(block, scratch) {
        const lines = block.text.split("\n");
        const step3 = lines.findIndex((line) => line.startsWith("// 3."));
        assert.ok(step3 > 0, "the flow's step 3 is marked `// 3.`");
        const flow = [...lines.slice(0, step3), readVerifier, ...lines.slice(step3), printToken].join("\n");
        // As it is, then as a desktop client ("oob"), as its first comment offers.
        const callback = 'oauth_callback: "https://client.example/done"';
        assert.ok(flow.includes(callback), `step 1 sends ${callback}`);
        for (const variant of [flow, flow.replace(callback, 'oauth_callback: "oob"')]) {
          let opened = false;
          const printed = await runModule(assemble(scratch, "write", setup, [variant]), async (line) => {
            if (!line.startsWith(`${scratch.server.url}/oauth/authorize?`)) return undefined;
            opened = true;
            return approve(line);
          });
          assert.ok(opened, "step 2 printed the sign-in address");
          scratch.values.set("write token", JSON.stringify(assertToken(printed.token)));
        }
      },
    },
    "oauth-xauth": {
      async run(block, scratch) {
        const text = block.text.replace('"her password"', '"kairan-demo"');
        assert.notEqual(text, block.text, "the example's password is a placeholder");
        const printed = await runModule(assemble(scratch, "Z", setup, [text, printToken]));
        scratch.values.set("Z token", JSON.stringify(assertToken(printed.token)));
      },
    },
    "oauth-call": {
      async run(block, scratch) {
        for (const level of ["write", "Z"] as const) {
          const token = scratch.values.get(`${level} token`) ?? assert.fail("the flows ran first");
          const report =
            "console.log(JSON.stringify({ feed: { status: String(feed.status), body: await feed.text() } }));";
          const { feed } = await runModule(
            assemble(scratch, level, setup, [`const token = ${token};`, block.text, report]),
          );
          assert.equal(feed?.status, "200", feed?.body);
          assert.equal(feed?.body?.match(/<entry>/g)?.length, 3, "the demo board's topics (the tour deleted its own)");
        }
      },
    },
  };
}
