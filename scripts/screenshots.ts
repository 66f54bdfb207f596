// `npm run screenshots`: PNGs of the main pages at desktop (1280 px) and phone (390 px) widths,
// in docs/screenshots/. A real `kairan serve` with the demo workspace, Debian's Chromium.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { launchChromium } from "../test/browser/chromium.js";
import { startServerProcess } from "../test/support/cli.js";

const OUT = fileURLToPath(new URL("../docs/screenshots/", import.meta.url));

/** The pages shot, by name; paths are the desktop ones (the phone ones are under /m). */
const PAGES: readonly { name: string; path: string }[] = [
  { name: "signin", path: "/signin" },
  { name: "groups", path: "/" },
  { name: "board", path: "/g/1:1/board" },
  { name: "topic", path: "/g/1:1/board/1:1" },
  { name: "new-topic", path: "/g/1:1/board/new" },
  { name: "tasks", path: "/g/1:1/tasks" },
  { name: "files", path: "/g/1:1/files" },
  { name: "members", path: "/g/1:1/members" },
  { name: "notifications", path: "/notifications?show=all" },
  { name: "likes", path: "/notifications/likes" },
  { name: "favorites", path: "/favorites" },
  { name: "settings", path: "/settings" },
];

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 800, prefix: "" },
  { name: "phone", width: 390, height: 844, prefix: "/m" },
] as const;

async function signIn(page: Page, base: string, email: string): Promise<void> {
  await page.goto(`${base}/signin`);
  await page.locator("#email").fill(email);
  await page.locator("#password").fill("kairan-demo");
  await page.locator("form button[type=submit]").click();
  await page.waitForURL((url) => !url.pathname.includes("signin"));
}

/** Bob likes the welcome topic and answers with a picture, so the topic page shows what it can. */
async function addActivity(browser: Browser, base: string): Promise<void> {
  const context = await browser.newContext({ locale: "en-US" });
  const page = await context.newPage();
  await signIn(page, base, "bob@example.com");
  await page.goto(`${base}/g/1:1/board/1:1`);
  await page.locator(".topic .reactions button", { hasText: "Like" }).click();
  await page.waitForLoadState();
  const png = await sharp({ create: { width: 480, height: 270, channels: 3, background: { r: 40, g: 110, b: 170 } } })
    .composite([
      {
        input: Buffer.from('<svg width="480" height="270"><circle cx="240" cy="135" r="80" fill="#f0b400"/></svg>'),
        top: 0,
        left: 0,
      },
    ])
    .png()
    .toBuffer();
  await page.locator("#comment-text").fill("Here is the diagram from Monday's call.");
  await page.locator("#comment-files").setInputFiles([{ name: "diagram.png", mimeType: "image/png", buffer: png }]);
  await page.locator("#comment-form button[type=submit]").click();
  await page.waitForURL(/#comment-\d+$/);
  await context.close();
}

/** Lazy images below the fold would be blank in a full-page shot: load them all first. */
async function loadAllImages(page: Page): Promise<void> {
  await page.evaluate(`Promise.all([...document.images].map((img) => {
    img.loading = "eager";
    return img.complete ? undefined : new Promise((done) => { img.onload = done; img.onerror = done; });
  }))`);
}

async function main(): Promise<void> {
  const browser = await launchChromium();
  const dataDir = mkdtempSync(join(tmpdir(), "kairan-screenshots-"));
  const server = await startServerProcess(["--port", "0", "--data", dataDir, "--log-level", "warn"]);
  try {
    mkdirSync(OUT, { recursive: true });
    await addActivity(browser, server.url);
    for (const viewport of VIEWPORTS) {
      const context = await browser.newContext({
        locale: "en-US",
        timezoneId: "UTC",
        viewport: { width: viewport.width, height: viewport.height },
      });
      const page = await context.newPage();
      await page.goto(`${server.url}${viewport.prefix}/signin`);
      await page.screenshot({ path: join(OUT, `${viewport.name}-signin.png`), fullPage: true });
      await signIn(page, server.url, "alice@example.com");
      for (const { name, path } of PAGES.filter((p) => p.name !== "signin")) {
        await page.goto(`${server.url}${viewport.prefix}${path === "/" && viewport.prefix ? "" : path}`);
        await loadAllImages(page);
        await page.screenshot({ path: join(OUT, `${viewport.name}-${name}.png`), fullPage: true });
        console.log(`${viewport.name}-${name}.png`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`screenshots written to ${OUT}`);
}

await main();
