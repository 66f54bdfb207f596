// `npm run screenshots`: PNGs of every page at desktop (1280 px) and phone (390 px) widths, in
// docs/screenshots/, at the widths the browser tests use, and the main pages again in Japanese
// (`*-ja-*.png`). A real `kairan serve` with the demo workspace, Debian's Chromium, and Debian's
// Noto CJK fonts, installed by this script when missing (without them Japanese shows as boxes).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { launchChromium } from "../test/browser/chromium.js";
import { WIDTHS, contextAt, pagesFor } from "../test/browser/widths.js";
import { startServerProcess } from "../test/support/cli.js";
import { temporaryToken } from "../test/support/oauth.js";

const OUT = fileURLToPath(new URL("../docs/screenshots/", import.meta.url));

/**
 * The pages shot, by name; paths are the desktop ones (the phone ones are under /m). `status` is
 * what the page must answer (200 unless said): a shot of an error page by mistake fails the run.
 * The README's web section links every one at both widths (test/docs/screenshots.test.ts).
 */
const PAGES: readonly { name: string; path: string; status?: number }[] = [
  { name: "groups", path: "/" },
  { name: "board", path: "/g/1:1/board" },
  { name: "trash", path: "/g/1:1/board?folder=TRASH" },
  { name: "topic", path: "/g/1:1/board/1:1" },
  { name: "new-topic", path: "/g/1:1/board/new" },
  { name: "tasks", path: "/g/1:1/tasks" },
  { name: "task", path: "/g/1:1/tasks/1:2" },
  { name: "files", path: "/g/1:1/files" },
  { name: "file", path: "/g/1:1/files/1:1" },
  { name: "members", path: "/g/1:1/members" },
  { name: "member", path: "/g/1:1/members/1:2" },
  { name: "notifications", path: "/notifications?show=all" },
  { name: "likes", path: "/notifications/likes?show=all" },
  { name: "favorites", path: "/favorites" },
  { name: "settings", path: "/settings" },
  { name: "new-task", path: "/g/1:1/tasks/new" },
  { name: "edit-task", path: "/g/1:1/tasks/1:2/edit" },
  { name: "new-group", path: "/groups/new" },
  { name: "edit-group", path: "/g/1:1/edit" },
  { name: "account", path: "/account" },
  { name: "search", path: "/search?q=launch" },
  { name: "folders", path: "/g/1:1/board/folders" },
  { name: "calendar", path: "/g/1:1/events" },
  { name: "week", path: "/g/1:1/events?view=week" },
  { name: "event", path: "/g/1:1/events/1:1" },
  { name: "my-calendar", path: "/schedule" },
  { name: "chat", path: "/mpChat" },
  { name: "conversation", path: "/mpChat/view?chatRoomId=1%231" },
  { name: "todo", path: "/todo" },
  { name: "address-book", path: "/address-book" },
  { name: "not-found", path: "/g/1:1/board/1:999", status: 404 },
];

/** The pages shot again in Japanese: the home page, the board, a topic, the calendar, chat and ToDo. */
const JAPANESE: ReadonlySet<string> = new Set(["groups", "board", "topic", "calendar", "week", "conversation", "todo"]);

/**
 * Japanese needs a CJK font in the browser: Debian's fonts-noto-cjk, installed here when fontconfig
 * knows no font for Japanese (as root, as on CI and the development machines; otherwise the line
 * to run is the error).
 */
function ensureJapaneseFont(): void {
  const known = () => spawnSync("fc-list", [":lang=ja", "family"], { encoding: "utf8" }).stdout?.trim() ?? "";
  if (known() !== "") return;
  if (process.getuid?.() !== 0) throw new Error("no Japanese font: run apt-get install -y fonts-noto-cjk as root");
  console.log("installing fonts-noto-cjk (apt-get), for the Japanese pages");
  const installed = spawnSync("apt-get", ["install", "-y", "--no-install-recommends", "fonts-noto-cjk"], {
    stdio: "inherit",
  });
  if (installed.status !== 0 || known() === "") throw new Error("apt-get could not install fonts-noto-cjk");
}

/** Where the demo's team works (its events are in this zone). */
const DEMO_ZONE = "Asia/Tokyo";

/** The longest shot, in CSS pixels: a long page is cut there (the top says what the page is). */
const MAX_HEIGHT = 2400;

async function signIn(page: Page, base: string, email: string): Promise<void> {
  await page.goto(`${base}/signin`);
  await page.locator("#email").fill(email);
  await page.locator("#password").fill("kairan-demo");
  await page.locator("form button.primary[type=submit]").click();
  await page.waitForURL((url) => !url.pathname.includes("signin"));
}

/** Bob likes the launch plan and answers with a picture, so the topic page shows what it can. */
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
  await page.locator("#comment-text").fill("Here is the first design of the gift box label.");
  await page
    .locator("#comment-files")
    .setInputFiles([{ name: "gift-box-label.png", mimeType: "image/png", buffer: png }]);
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

/** Shoots the page as it is (cut at MAX_HEIGHT) into OUT/`file`, as a small palette PNG. */
async function shoot(page: Page, file: string): Promise<void> {
  await loadAllImages(page);
  const size = await page.evaluate<{ width: number; height: number }>(
    "({ width: document.documentElement.clientWidth, height: document.documentElement.scrollHeight })",
  );
  const shot = await page.screenshot({
    fullPage: true,
    clip: { x: 0, y: 0, width: size.width, height: Math.min(size.height, MAX_HEIGHT) },
  });
  // A palette of 256 colours: the pages are flat colours and text, so this costs nothing visible.
  await sharp(shot).png({ palette: true, colours: 256, compressionLevel: 9, effort: 10 }).toFile(join(OUT, file));
  console.log(file);
}

/** Opens `url` and refuses to go on unless it answered `status`. */
async function open(page: Page, url: string, status = 200): Promise<void> {
  const answer = await page.goto(url);
  if (answer?.status() !== status) throw new Error(`${url} answered ${answer?.status()}, not ${status}`);
}

async function main(): Promise<void> {
  ensureJapaneseFont();
  const browser = await launchChromium();
  const dataDir = mkdtempSync(join(tmpdir(), "kairan-screenshots-"));
  const server = await startServerProcess(["--port", "0", "--data", dataDir, "--log-level", "warn"]);
  try {
    mkdirSync(OUT, { recursive: true });
    await addActivity(browser, server.url);
    for (const width of WIDTHS) {
      // The demo team works in Tokyo: Alice's first sign-in takes her browser's zone.
      const context = await contextAt(browser, width, { timezoneId: DEMO_ZONE });
      const page = await context.newPage();
      const prefix = pagesFor(width);
      await open(page, `${server.url}${prefix}/signin`);
      await shoot(page, `${width.name}-signin.png`);
      const token = await temporaryToken(server.url, { key: "demo-key", secret: "demo-secret" });
      await open(page, `${server.url}/oauth/authorize?oauth_token=${encodeURIComponent(token)}`);
      await shoot(page, `${width.name}-authorize.png`);
      await signIn(page, server.url, "alice@example.com");
      for (const { name, path, status } of PAGES) {
        await open(page, `${server.url}${prefix}${path === "/" && prefix ? "" : path}`, status);
        await shoot(page, `${width.name}-${name}.png`);
      }
      // The header's menu: folded into a button on a phone (opened here), the whole row on a desktop.
      await open(page, `${server.url}${prefix || "/"}`);
      const toggle = page.locator(".menu-toggle");
      if (await toggle.isVisible()) await toggle.click();
      await shoot(page, `${width.name}-menu.png`);
      await context.close();
      // The same person, reading in Japanese (the browser asks for it; Alice chose no language).
      const ja = await contextAt(browser, width, { locale: "ja-JP", timezoneId: DEMO_ZONE });
      const japanese = await ja.newPage();
      await signIn(japanese, server.url, "alice@example.com");
      for (const { name, path } of PAGES.filter((shot) => JAPANESE.has(shot.name))) {
        await open(japanese, `${server.url}${prefix}${path === "/" && prefix ? "" : path}`);
        await shoot(japanese, `${width.name}-ja-${name}.png`);
      }
      await ja.close();
    }
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`screenshots written to ${OUT}`);
}

await main();
