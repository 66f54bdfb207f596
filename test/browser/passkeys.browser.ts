// Passkeys in Chromium with its virtual authenticator (over CDP: a platform authenticator that
// keeps discoverable credentials and verifies the user): Alice adds a passkey on her two-factor
// page, signs out, signs in with the passkey alone; signs in with her password and then the
// passkey as the second step; removes it. The server's public URL is http://localhost:PORT: a
// secure context for Chromium, and "localhost" is a valid RP ID where 127.0.0.1 is not. The pages
// pass axe-core's serious and critical checks. Run by `npm run test:browser` (after `npm run build`).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type ServerProcess, runKairan, startServerProcess } from "../support/cli.js";
import { freePort } from "../support/free-port.js";
import { seriousViolations } from "./axe.js";
import { addVirtualAuthenticator, launchChromium } from "./chromium.js";

const SEED = fileURLToPath(new URL("./seed.json", import.meta.url));

describe("passkeys in Chromium (virtual authenticator)", () => {
  let browser: Browser;
  let dataDir: string;
  let server: ServerProcess;
  let context: BrowserContext;
  let page: Page;
  let base = "";
  const url = (path: string) => `${base}${path}`;

  before(async () => {
    browser = await launchChromium();
    dataDir = mkdtempSync(join(tmpdir(), "kairan-passkeys-browser-"));
    const seeded = runKairan(["seed", SEED, "--data", dataDir, "--log-level", "silent"]);
    assert.equal(seeded.status, 0, seeded.stderr);
    const port = await freePort();
    base = `http://localhost:${port}`;
    server = await startServerProcess([
      "--port",
      String(port),
      "--public-url",
      base,
      "--data",
      dataDir,
      "--no-demo",
      "--log-level",
      "warn",
    ]);
    // axe-core is added to the pages as a script: only this test's context bypasses the CSP for it.
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US", bypassCSP: true });
    page = await context.newPage();
    await addVirtualAuthenticator(context, page);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const hasSession = async () => (await context.cookies()).some((c) => c.name === "kairan_session");

  async function signOut(): Promise<void> {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/signin\?signed-out=1$/);
    assert.equal(await hasSession(), false);
  }

  async function passwordStep(): Promise<void> {
    await page.goto(url("/signin"));
    await page.getByLabel("E-mail address").fill("alice@example.com");
    await page.getByLabel("Password").fill("alice-pass");
    await page.getByRole("button", { name: "Sign in" }).click();
  }

  it("adds a passkey from the two-factor page", async () => {
    await passwordStep();
    await page.waitForURL(url("/"));
    await page.goto(url("/account/two-factor"));
    assert.equal(await page.locator("#passkeys-none").count(), 1);
    await page.getByLabel("Name of the new passkey (the device it is on, for example)").fill("Chromium");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.waitForURL(url("/account/two-factor?saved=passkeys#passkeys"));
    assert.match((await page.locator("#passkey-list").textContent()) ?? "", /Chromium/);
    assert.deepEqual(
      await seriousViolations(page),
      [],
      "two-factor page with a passkey: axe-core finds nothing serious",
    );
  });

  it("signs in with the passkey alone", async () => {
    await signOut();
    await page.goto(url("/signin"));
    assert.deepEqual(await seriousViolations(page), [], "sign-in page: axe-core finds nothing serious");
    assert.equal(await page.locator("[data-passkey-error]").isVisible(), false, "no refusal shown before one");
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await page.waitForURL(url("/"));
    assert.ok(await hasSession(), "the passkey opened the session");
  });

  it("signs in with the password, then the passkey as the second step", async () => {
    await signOut();
    await passwordStep();
    await page.waitForURL(/\/signin\/second-factor/);
    assert.equal(await hasSession(), false, "no session before the second step");
    assert.deepEqual(await seriousViolations(page), [], "second step: axe-core finds nothing serious");
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await page.waitForURL(url("/"));
    assert.ok(await hasSession());
  });

  it("removes the passkey with the password; the password alone signs in again", async () => {
    await page.goto(url("/account/two-factor"));
    await page.getByLabel("Passkey", { exact: true }).selectOption({ label: "Chromium" });
    await page.getByLabel("A code from the app, or your password").fill("alice-pass");
    await page.getByRole("button", { name: "Remove a passkey" }).click();
    await page.waitForURL(url("/account/two-factor?saved=passkey-remove#passkey-remove"));
    assert.equal(await page.locator("#passkeys-none").count(), 1);
    await signOut();
    await passwordStep();
    await page.waitForURL(url("/"));
  });
});
