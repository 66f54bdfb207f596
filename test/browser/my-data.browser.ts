// One's own data in Chromium, on the desktop and on a 390 px phone: Bob posts a topic, downloads
// his data from the account page (a zip named for the day, holding profile.json and his topic),
// then deletes his account with his password: he lands on the sign-in page saying so, and his
// password no longer signs him in. Run by `npm run test:browser`.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import yauzl from "yauzl";
import { type ServerProcess, runKairan, startServerProcess } from "../support/cli.js";
import { launchChromium } from "./chromium.js";
import { screensOf } from "./widths.js";

const SEED = fileURLToPath(new URL("./seed.json", import.meta.url));

const VARIANTS = [
  { name: "desktop", base: "", context: { viewport: { width: 1280, height: 900 } } },
  {
    name: "390 px phone",
    base: "/m",
    context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  },
] as const;

/** The names of a zip's entries and the text of `want`. */
function readZip(path: string, want: string): Promise<{ names: string[]; text: string }> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const names: string[] = [];
      let text = "";
      zip.on("error", reject);
      zip.on("end", () => resolve({ names, text }));
      zip.on("entry", (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        if (entry.fileName !== want) return zip.readEntry();
        zip.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            text = Buffer.concat(chunks).toString("utf8");
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

async function signIn(page: Page, home: string, email: string, password: string): Promise<void> {
  await page.goto(home);
  await page.getByLabel(/^(E-mail address|メールアドレス)$/).fill(email);
  await page.getByLabel(/^(Password|パスワード)$/).fill(password);
  await page.getByRole("button", { name: /^(Sign in|ログイン)$/ }).click();
}

// Everyday at the desktop (a download and a form); `npm run test:long` adds the phone.
for (const variant of screensOf(VARIANTS, VARIANTS[0])) {
  describe(`one's own data in Chromium (${variant.name})`, () => {
    let browser: Browser;
    let context: BrowserContext;
    let dataDir: string;
    let server: ServerProcess;
    let bob: Page;
    const url = (path: string) => `${server.url}${variant.base}${path}`;

    before(async () => {
      browser = await launchChromium();
      dataDir = mkdtempSync(join(tmpdir(), "kairan-my-data-browser-"));
      const seeded = runKairan(["seed", SEED, "--data", dataDir, "--log-level", "silent"]);
      assert.equal(seeded.status, 0, seeded.stderr);
      server = await startServerProcess(["--port", "0", "--data", dataDir, "--no-demo", "--log-level", "warn"]);
      context = await browser.newContext({ ...variant.context, locale: "en-US", acceptDownloads: true });
      bob = await context.newPage();
      await signIn(bob, url("/"), "bob@example.com", "bob-pass");
      await bob.waitForURL(new RegExp(`${variant.base}/?$`));
      await bob.goto(`${server.url}/g/1:1/board/new`);
      await bob.getByLabel("Title").fill("Bob's own topic");
      await bob.getByRole("button", { name: "Post topic" }).click();
      await bob.waitForURL(/\/g\/1:1\/board\/1:\d+$/);
    });
    after(async () => {
      await browser?.close();
      await server?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it("downloads Bob's data: a zip named for the day with profile.json and his topic", async () => {
      await bob.goto(url("/account"));
      const [download] = await Promise.all([
        bob.waitForEvent("download"),
        bob.getByRole("link", { name: "Download my data" }).click(),
      ]);
      assert.match(download.suggestedFilename(), /^kairan-my-data-\d{4}-\d{2}-\d{2}\.zip$/);
      const path = join(dataDir, `download-${variant.name}.zip`);
      await download.saveAs(path);
      assert.equal(readFileSync(path).subarray(0, 2).toString("latin1"), "PK", "a zip");
      const { names, text } = await readZip(path, "profile.json");
      assert.equal((JSON.parse(text) as { email: string }).email, "bob@example.com");
      assert.ok(names.includes("topics.atom") && names.includes("README.txt"), names.join(", "));
    });

    it("deletes Bob's account with his password: signed out, told so, and the password opens nothing", async () => {
      await bob.goto(url("/account"));
      const section = bob.locator("#delete");
      assert.match((await section.textContent()) ?? "", /What stays/);
      await section.getByLabel("Your password, or a current code of your authenticator app").fill("wrong");
      await section.getByRole("button", { name: "Delete my account" }).click();
      assert.match(
        (await bob.locator("#delete-error").textContent()) ?? "",
        /Neither a current code nor your password/,
      );
      await bob
        .locator("#delete")
        .getByLabel("Your password, or a current code of your authenticator app")
        .fill("bob-pass");
      await bob.locator("#delete").getByRole("button", { name: "Delete my account" }).click();
      await bob.waitForURL(/\/signin\?deleted=1$/);
      assert.match((await bob.locator("main").textContent()) ?? "", /Your account has been deleted\./);
      await bob.goto(url("/account"));
      assert.match(bob.url(), /\/signin\?next=/, "signed out");
      await signIn(bob, url("/"), "bob@example.com", "bob-pass");
      assert.match((await bob.locator("main").textContent()) ?? "", /wrong|incorrect/i);
      assert.match(bob.url(), /\/signin/);
    });
  });
}
