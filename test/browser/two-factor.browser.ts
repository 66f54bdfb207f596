// Two-factor sign-in in Chromium, on the desktop and on a 390 px phone: Alice sets up an
// authenticator app (the test reads the secret and computes codes as the app would, with otpauth),
// saves her recovery codes, signs out, and signs in again with the password and then a code; the
// pages pass axe-core's serious and critical checks and do not scroll sideways. Run by
// `npm run test:browser` (after `npm run build`).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type ServerProcess, runKairan, startServerProcess } from "../support/cli.js";
import { totpCode } from "../support/totp.js";
import { seriousViolations } from "./axe.js";
import { launchChromium } from "./chromium.js";
import { openMenu, screensOf } from "./widths.js";

const SEED = fileURLToPath(new URL("./seed.json", import.meta.url));

const VARIANTS = [
  { name: "desktop", base: "", context: { viewport: { width: 1280, height: 900 } } },
  {
    name: "390 px phone",
    base: "/m",
    context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  },
] as const;

async function accessible(page: Page, width: number, what: string): Promise<void> {
  assert.deepEqual(await seriousViolations(page), [], `${what}: axe-core finds nothing serious`);
  const scrolled = await page.evaluate<number>("document.documentElement.scrollWidth");
  assert.ok(scrolled <= width, `${what}: no sideways scrolling (page is ${scrolled}px wide, window ${width}px)`);
}

// Everyday on the phone (the QR code and the codes at 390 px); `npm run test:long` adds the desktop.
for (const variant of screensOf(VARIANTS, VARIANTS[1])) {
  describe(`two-factor sign-in in Chromium (${variant.name})`, () => {
    let browser: Browser;
    let dataDir: string;
    let server: ServerProcess;
    let context: BrowserContext;
    let page: Page;
    let secret = "";
    const url = (path: string) => `${server.url}${variant.base}${path === "/" && variant.base ? "" : path}`;
    const width = variant.context.viewport.width;

    before(async () => {
      browser = await launchChromium();
      dataDir = mkdtempSync(join(tmpdir(), "kairan-two-factor-browser-"));
      const seeded = runKairan(["seed", SEED, "--data", dataDir, "--log-level", "silent"]);
      assert.equal(seeded.status, 0, seeded.stderr);
      server = await startServerProcess(["--port", "0", "--data", dataDir, "--no-demo", "--log-level", "warn"]);
      // axe-core is added to the pages as a script: only this test's context bypasses the CSP for it.
      context = await browser.newContext({ ...variant.context, locale: "en-US", bypassCSP: true });
      page = await context.newPage();
    });
    after(async () => {
      await browser?.close();
      await server?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    async function passwordStep(): Promise<void> {
      await page.goto(url("/signin"));
      await page.getByLabel("E-mail address").fill("alice@example.com");
      await page.getByLabel("Password").fill("alice-pass");
      await page.getByRole("button", { name: "Sign in" }).click();
    }

    it("sets up an authenticator app from the QR code's secret and shows the recovery codes once", async () => {
      await passwordStep();
      await page.waitForURL(url("/"));
      await page.goto(url("/account"));
      await page.getByRole("link", { name: "Set up or change two-factor sign-in" }).click();
      await page.waitForURL(url("/account/two-factor"));
      await accessible(page, width, "two-factor page");
      await page.getByRole("button", { name: "Set up an authenticator app" }).click();
      const qr = page.getByRole("img", { name: "QR code of the secret for your authenticator app" });
      await qr.waitFor();
      const box = await qr.boundingBox();
      assert.ok(
        box && box.width >= 150 && box.width <= width,
        `the QR code is shown at a readable size (${box?.width})`,
      );
      await accessible(page, width, "enrolment page");
      secret = ((await page.locator("#totp-secret").textContent()) ?? "").replace(/\s/g, "");
      assert.match(secret, /^[A-Z2-7]{32}$/);
      await page.getByLabel("Six-digit code from the app").fill(totpCode(secret, Date.now()));
      await page.getByRole("button", { name: "Confirm and turn on" }).click();
      await page.getByRole("heading", { name: "Your recovery codes" }).waitFor();
      assert.equal(await page.locator("#recovery-codes li").count(), 10);
      await accessible(page, width, "recovery codes page");
      await page.getByRole("link", { name: "I have saved them" }).click();
      await page.waitForURL(url("/account/two-factor"));
      assert.match((await page.locator("#two-factor-state").textContent()) ?? "", /^On:/);
      assert.equal(await page.locator("#totp-secret").count(), 0, "the secret is not shown again");
    });

    it("signs in with the password, then a code computed now; the session exists only after the code", async () => {
      await openMenu(page);
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(/\/signin\?signed-out=1$/);
      await passwordStep();
      await page.waitForURL(/\/signin\/second-factor/);
      await accessible(page, width, "second step");
      const cookies = await context.cookies();
      assert.ok(!cookies.some((c) => c.name === "kairan_session"), "no session before the code");
      await page.getByLabel("Code", { exact: true }).fill("000000");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("alert").waitFor();
      assert.match((await page.getByRole("alert").textContent()) ?? "", /The code is wrong, expired or already used/);
      await accessible(page, width, "second step refused");
      // The next step's code: the one that confirmed the enrolment may still be current, and is spent.
      await page.getByLabel("Code", { exact: true }).fill(totpCode(secret, Date.now() + 30_000));
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(url("/"));
      assert.ok((await context.cookies()).some((c) => c.name === "kairan_session"));
    });
  });
}
