// The README is tested: every code block of README.md is run against a scratch installation (a
// `kairan serve` process with the demo workspace) the way a reader runs it, and the answers it
// shows are checked, so the README cannot drift from what Kairan does. A block carries the
// comment `<!-- readme-test: NAME -->` (invisible when rendered); NAME is its row in STEPS below.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { TEST_DATABASE_URL, type Backend } from "../support/backends.js";
import { WebClient } from "../support/web.js";
import { type Block, assertShown, commandsOf, readmeBlocks } from "./readme-blocks.js";
import { README_URL, ROOT, type Scratch, assertCurl, runBlock, runShell, startScratch } from "./readme-scratch.js";
import { oauthSteps } from "./readme-oauth.js";

const README = readFileSync(join(ROOT, "README.md"), "utf8");
const BLOCKS = readmeBlocks(README);

/** How one block is run and checked; a block that only shows output or configuration gets `notRun`, saying so. */
type Step =
  | { readonly run: (block: Block, scratch: Scratch) => Promise<void> | void; readonly sqliteOnly?: true }
  | { readonly notRun: string };

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * A GET on a connection of its own: the blocks between two requests run `npx kairan` for seconds,
 * and a kept-alive connection the server closes after its idle timeout (10 s) would be reused as
 * it closes on a busy machine ("other side closed").
 */
function get(scratch: Scratch, path: string, token: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(`${scratch.server.url}${path}`, { headers: bearer(token), agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
      response.on("error", reject);
    });
    sent.on("error", reject);
    sent.end();
  });
}

const entries = (feed: string) => feed.match(/<entry>/g)?.length ?? 0;

/** The README's blocks, in README order, each run the way the README tells a reader to. */
const STEPS: Readonly<Record<string, Step>> = {
  "quick-start": {
    // Not run: npm ci installs, npm test runs this file, and npm start is test/cli/npm-start.test.ts
    // (the server the blocks below run against is the one it starts). What the comment says is checked.
    async run(block, scratch) {
      assert.match(
        commandsOf(block),
        /npm start +# serves the demo workspace on http:\/\/127\.0\.0\.1:8080 \(SQLite in \.\/data\)/,
      );
      const scripts = (
        JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
      ).scripts;
      assert.match(scripts.start ?? "", /\bkairan\.js serve$/);
      // The one `npx kairan` run the whole way (bash, npm, bin/kairan.js); the other blocks' run in this process.
      const help = await runShell(scratch, "npx kairan serve --help", [], { asProcess: true });
      assert.match(help, /^ {2}--port N .*\(default 8080\)$/m);
      assert.match(help, /^ {2}--host H .*\(default 127\.0\.0\.1\)$/m);
      assert.match(help, /^ {2}--data DIR .*\(default \.\/data\)$/m);
      assert.match(scratch.server.stdout(), /^Loaded the demo workspace/m, "an empty database gets the demo workspace");
    },
  },
  "tour-read": {
    async run(block, scratch) {
      // The line `npm start` printed before `listening on`, once the port is the README's.
      const printed = scratch.server.stdout().replaceAll(scratch.server.url, README_URL);
      const at = printed.indexOf(commandsOf(block).trim());
      assert.ok(at >= 0 && at < printed.indexOf(`listening on ${README_URL}`), `the server printed:\n${printed}`);
      const feed = await runBlock(scratch, block);
      assert.match(feed, /^<\?xml[^>]*\?>\s*<feed /);
      assert.equal(entries(feed), 3, "the demo board's three topics (the fourth is in the trash)");
    },
  },
  "tour-create": {
    async run(block, scratch) {
      const entry = await runBlock(scratch, block);
      assert.match(entry, /<title>Hello from curl<\/title>/);
      const id = /<id>(GROUP,1:1,BOARD,1:\d+)<\/id>/.exec(entry)?.[1];
      assert.ok(id, `the new entry has its id:\n${entry}`);
      scratch.values.set("topic", id);
    },
  },
  "tour-too-long": {
    async run(block, scratch) {
      assertShown(block, await runBlock(scratch, block));
    },
  },
  "notifications-list": {
    async run(block, scratch) {
      const feed = await runBlock(scratch, block);
      assert.ok(feed.includes(`<id>${scratch.values.get("topic")}</id>`), "Bob is told of the topic Alice created");
      assert.ok(feed.includes("<id>GROUP,1:1,BOARD,1:1</id>"), "and of the demo's topics");
      assert.ok(feed.includes("<cbl:confirmed>false</cbl:confirmed>"));
    },
  },
  "notifications-confirm": {
    async run(block, scratch) {
      const confirmed = await runBlock(scratch, block);
      assert.equal(entries(confirmed), 1, `the one that became confirmed:\n${confirmed}`);
      assert.ok(confirmed.includes("<id>GROUP,1:1,BOARD,1:1</id>"));
      const unconfirmed = await get(scratch, "/api/notification/V2?unconfirmed=true", "bob-demo-token");
      assert.ok(!unconfirmed.text.includes("<id>GROUP,1:1,BOARD,1:1</id>"), "no longer unconfirmed");
    },
  },
  "set-notify": {
    async run(block, scratch) {
      await runBlock(scratch, block);
      const listed = await get(scratch, "/api/notification/V2?group=1:1", "bob-demo-token");
      assert.equal(entries(listed.text), 0, "a group set to do not notify lists nothing");
      const ruledOut = await get(scratch, "/api/notification/V2?group=1:1&include-rule-out=true", "bob-demo-token");
      assert.ok(entries(ruledOut.text) > 0, "but keeps them, listed with include-rule-out=true");
    },
  },
  "set-notify-back": {
    async run(block, scratch) {
      await runBlock(scratch, block);
      const listed = await get(scratch, "/api/notification/V2?group=1:1", "bob-demo-token");
      assert.ok(entries(listed.text) > 0, "the group's notifications are listed again");
    },
  },
  "tour-delete": {
    async run(block, scratch) {
      const topic = scratch.values.get("topic") ?? "";
      assert.ok(block.text.includes(`<id>${topic}</id>`), `the README deletes the topic the tour made (${topic})`);
      const answer = await runBlock(scratch, block);
      assert.ok(answer.includes(topic), `the answer names it:\n${answer}`);
      const board = await get(scratch, "/api/board/V2?group=1:1", "alice-demo-token");
      assert.ok(!board.text.includes("Hello from curl"), "the board is as the demo had it");
    },
  },
  seed: {
    async run(block, scratch) {
      const { dir, env } = await scratch.fresh();
      const output = await runShell(scratch, commandsOf(block), [["./other-data", dir]], { env });
      assertShown(block, output);
      scratch.values.set("seeded", dir);
    },
  },
  "app-add": {
    async run(block, scratch) {
      for (const level of ["write", "Z"]) {
        // The README's line as it is, and again with the level its comment offers for xAuth.
        const output = await runBlock(scratch, block, level === "write" ? [] : [["--level write", `--level ${level}`]]);
        assert.match(output, new RegExp(`^access level: +${level}$`, "m"));
        for (const field of ["consumer key", "consumer secret"]) {
          const value = new RegExp(`^${field}: +(\\S+)$`, "m").exec(output)?.[1];
          assert.ok(value, `app add prints the ${field}:\n${output}`);
          scratch.values.set(`${level} ${field}`, value);
        }
      }
    },
  },
  ...oauthSteps(BLOCKS),
  tokens: {
    async run(block, scratch) {
      const [add = "", list = "", revoke = ""] = commandsOf(block).split("\n");
      const key = scratch.values.get("write consumer key") ?? assert.fail("the app-add block ran first");
      const added = await runShell(scratch, add, [["CONSUMER_KEY", key]]);
      const token = /^token: +(\S+)$/m.exec(added)?.[1] ?? assert.fail(`no token in:\n${added}`);
      assert.equal((await get(scratch, "/api/board/V2?group=1:1", token)).status, 200, "works as a Bearer token");
      const row = (await runShell(scratch, list)).split("\n").find((line) => line.includes("backup script"));
      const id = /^(\d+) /.exec(row ?? "")?.[1] ?? assert.fail(`token list shows the new token: ${row}`);
      assert.match(await runShell(scratch, revoke, [["ID", id]]), new RegExp(`revoked token ${id}`));
      assert.equal((await get(scratch, "/api/board/V2?group=1:1", token)).status, 401, "a revoked token is refused");
    },
  },
  "page-size": {
    sqliteOnly: true,
    async run(block, scratch) {
      // A file from before 16 KB pages: the seeded one, turned back to 4 KB pages.
      const seeded = scratch.values.get("seeded") ?? assert.fail("the seed block ran first");
      const file = join(seeded, "kairan.sqlite");
      const pageSize = () => {
        const db = new Database(file);
        try {
          return db.pragma("page_size", { simple: true });
        } finally {
          db.close();
        }
      };
      const db = new Database(file);
      db.exec("PRAGMA journal_mode = DELETE; PRAGMA page_size = 4096; VACUUM; PRAGMA journal_mode = WAL");
      db.close();
      assert.equal(pageSize(), 4096);
      await runShell(scratch, commandsOf(block), [["data/kairan.sqlite", file]]);
      assert.equal(pageSize(), 16384);
    },
  },
};

describe("README.md", () => {
  it("has a row in the README test for every code block, and a block for every row", () => {
    const unnamed = BLOCKS.filter((block) => block.name === undefined).map((block) => `README.md:${block.line}`);
    assert.deepEqual(unnamed, [], "each code block is preceded by <!-- readme-test: NAME -->");
    const names = BLOCKS.map((block) => block.name ?? "");
    assert.deepEqual(
      names.filter((name) => !(name in STEPS)),
      [],
      "names the test has no row for",
    );
    assert.deepEqual(
      Object.keys(STEPS).filter((name) => !names.includes(name)),
      [],
      "rows with no block",
    );
    assert.equal(new Set(names).size, names.length, "each name once");
  });

  it("opens for people: what Kairan is, the two commands, where to sign in, a picture; the API after", () => {
    const opening = README.slice(0, README.indexOf("\n## "));
    assert.match(opening, /^# Kairan\n\nKairan is groupware /);
    assert.match(opening, /npm ci && npm start/);
    assert.match(opening, /open <http:\/\/127\.0\.0\.1:8080> and sign in as `alice@example\.com`/);
    assert.match(opening, /<img src="docs\/screenshots\/[a-z-]+\.png" alt="[^"]+"/);
    const headings = [...README.matchAll(/^## (.+)$/gm)].map((match) => match[1]!);
    assert.equal(headings[0], "Web interface", "the browser comes first");
    assert.ok(headings.indexOf("The API: a five-minute tour") > 0, headings.join(", "));
    assert.ok(!headings.includes("Performance"), "benchmark tables live in docs/performance.md");
  });

  it("needs curl, as its readers do", () => assertCurl());
});

function describeReadme(backend: Backend, skip: string | false): void {
  describe(`the README's commands [${backend}]`, { skip }, () => {
    let scratch: Scratch;
    before(async () => {
      scratch = await startScratch(backend);
    });
    after(() => scratch?.close());

    for (const block of BLOCKS) {
      const step = STEPS[block.name ?? ""];
      if (step === undefined) continue;
      const title = `${block.name} (README.md:${block.line})`;
      if ("notRun" in step) it(title, { skip: `not run: ${step.notRun}` }, () => {});
      else if (step.sqliteOnly && backend !== "sqlite") it(title, { skip: "a SQLite file only" }, () => {});
      else it(title, () => step.run(block, scratch));
    }

    it("the web interface's addresses in the README are pages of the demo workspace", async () => {
      const browser = new WebClient(scratch.server.url);
      await browser.signIn("alice@example.com", "kairan-demo");
      for (const address of webAddresses(README)) {
        const page = await browser.get(address);
        assert.equal(page.status, 200, `${address}: ${page.html.slice(0, 300)}`);
      }
    });
  });
}

/** The addresses of the README's page table: `/path`, `?query` after the row's last path, `&more` after the last address. */
function webAddresses(markdown: string): string[] {
  const table = markdown.split("\n").filter((line) => /^\| .*\| `\/.*` +\|$/.test(line));
  assert.ok(table.length >= 8, "the README has its table of pages");
  return table.flatMap((row) => {
    const cell = row.split("|").at(-2) ?? "";
    let path = "";
    let last = "";
    return [...cell.matchAll(/`([^`]+)`/g)].flatMap(([, text = ""]) => {
      if (text.startsWith("/")) path = last = text;
      else if (text.startsWith("?")) last = path + text;
      else if (text.startsWith("&")) last = last + text;
      else return [];
      return [last];
    });
  });
}

describeReadme("sqlite", false);
describeReadme("postgres", TEST_DATABASE_URL ? false : "needs PostgreSQL: set KAIRAN_TEST_DATABASE_URL");
