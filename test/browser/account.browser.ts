// The account page in Chromium, on the desktop and on a 390 px phone: switching the language and
// time zone (every time on the pages follows, whatever the browser's own zone), uploading a
// picture that then stands beside the person's posts, and changing the password, which signs out
// the person's other session and keeps this one. Run by `npm run test:browser`.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import sharp from "sharp";
import { type ServerProcess, runKairan, startServerProcess } from "../support/cli.js";
import { launchChromium, loadedImageWidth } from "./chromium.js";
import { signIn } from "./sign-in.js";
import { openMenu } from "./widths.js";

const SEED = fileURLToPath(new URL("./seed.json", import.meta.url));

/** The two widths every flow runs at. */
const VARIANTS = [
  { name: "desktop", base: "", context: { viewport: { width: 1280, height: 900 } } },
  {
    name: "390 px phone",
    base: "/m",
    context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  },
] as const;

/** How the server should print a `<time datetime>` for this language and zone. */
function expected(datetime: string, locale: string, timeZone: string): string {
  const format = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone });
  return format.format(Date.parse(datetime)).replace(/\u202f/g, " ");
}

async function noSidewaysScrolling(page: Page, width: number): Promise<void> {
  const scrolled = await page.evaluate<number>("document.documentElement.scrollWidth");
  assert.ok(scrolled <= width, `no sideways scrolling (page is ${scrolled}px wide, window ${width}px)`);
}

for (const variant of VARIANTS) {
  describe(`the account page in Chromium (${variant.name})`, () => {
    let browser: Browser;
    let dataDir: string;
    let server: ServerProcess;
    let contexts: BrowserContext[];
    let me: Page; // Alice at this width, her browser in Paris
    let elsewhere: Page; // Alice's other session
    let bob: Page;
    let topicUrl: string;
    const url = (path: string) => `${server.url}${variant.base}${path === "/" && variant.base ? "" : path}`;

    before(async () => {
      browser = await launchChromium();
      dataDir = mkdtempSync(join(tmpdir(), "kairan-account-browser-"));
      const seeded = runKairan(["seed", SEED, "--data", dataDir, "--log-level", "silent"]);
      assert.equal(seeded.status, 0, seeded.stderr);
      server = await startServerProcess(["--port", "0", "--data", dataDir, "--no-demo", "--log-level", "warn"]);
      contexts = [
        await browser.newContext({ ...variant.context, locale: "en-US", timezoneId: "Europe/Paris" }),
        await browser.newContext({ locale: "en-US" }),
        await browser.newContext({ locale: "en-US", timezoneId: "Asia/Kolkata" }),
      ];
      [me, elsewhere, bob] = (await Promise.all(contexts.map((context) => context.newPage()))) as [Page, Page, Page];
      await signIn(me, url("/"), "alice@example.com", "alice-pass");
      await signIn(elsewhere, `${server.url}/`, "alice@example.com", "alice-pass");
      await signIn(bob, `${server.url}/`, "bob@example.com", "bob-pass");
      await bob.goto(`${server.url}/g/1:1/board/new`);
      await bob.getByLabel("Title").fill("Opening hours");
      await bob.getByRole("button", { name: "Post topic" }).click();
      await bob.waitForURL(/\/g\/1:1\/board\/1:\d+$/);
      topicUrl = bob.url().replace(server.url, "");
    });
    after(async () => {
      await browser?.close();
      await server?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it("switches Alice's pages to Japanese and Tokyo time, whatever her browser says", async () => {
      await me.goto(url("/"));
      await openMenu(me);
      await me.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Account" }).click();
      await me.waitForURL(url("/account"));
      await noSidewaysScrolling(me, variant.context.viewport.width);
      await me.getByLabel("Language", { exact: true }).selectOption({ label: "日本語" });
      await me.getByLabel("Time zone", { exact: true }).selectOption("Asia/Tokyo");
      await me.getByRole("button", { name: "Save language and time zone" }).click();
      await me.waitForURL(/\/account\?saved=preferences#preferences$/);
      assert.equal(await me.getByRole("heading", { level: 1 }).textContent(), "アカウント");
      assert.equal(await me.evaluate<string>("document.documentElement.lang"), "ja");
      await me.goto(url(topicUrl));
      const time = me.locator(".item-head time").first();
      const datetime = (await time.getAttribute("datetime")) ?? "";
      assert.equal(await time.textContent(), expected(datetime, "ja-JP", "Asia/Tokyo"), "Tokyo time, in Japanese");
      await bob.goto(`${server.url}${topicUrl}`);
      const bobs = await bob.locator(".item-head time").first().textContent();
      assert.equal(
        bobs,
        expected(datetime, "en-US", "Asia/Kolkata"),
        "Bob chose nothing: English, and his browser's zone, taken at his first sign-in",
      );
      // And back to English for the flows below, from the Japanese page.
      await me.goto(url("/account"));
      await me.getByLabel("言語", { exact: true }).selectOption({ label: "English" });
      await me.getByRole("button", { name: "言語とタイムゾーンを保存" }).click();
      await me.waitForURL(/saved=preferences/);
      assert.equal(await me.getByRole("heading", { level: 1 }).textContent(), "Your account");
    });

    it("uploads a picture that then stands beside Alice's comment", async () => {
      const picture = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#2a7" } })
        .jpeg()
        .toBuffer();
      await me.goto(url("/account"));
      await me.getByLabel("Image file").setInputFiles([{ name: "me.jpg", mimeType: "image/jpeg", buffer: picture }]);
      await me.getByRole("button", { name: "Upload picture" }).click();
      await me.waitForURL(/saved=picture/);
      const shown = me.locator(".picture-current img.avatar");
      await shown.waitFor();
      assert.equal(await loadedImageWidth(shown), 192);
      await me.goto(url(topicUrl));
      await me.getByLabel("Comment", { exact: true }).fill("Nine to five.");
      await me.getByRole("button", { name: "Post comment" }).click();
      await me.waitForURL(/#comment-1$/);
      await bob.goto(`${server.url}${topicUrl}`);
      const avatar = bob.locator("#comment-1 .comment-head img.avatar");
      await avatar.waitFor();
      assert.equal(await loadedImageWidth(avatar), 192);
      assert.equal(await bob.locator(".item-head .avatar-initial").textContent(), "B", "Bob has no picture");
      await noSidewaysScrolling(me, variant.context.viewport.width);
    });

    it("changes the password: the other session is signed out, this one stays", async () => {
      await elsewhere.goto(`${server.url}/favorites`);
      assert.match(elsewhere.url(), /\/favorites$/, "the other session works before");
      await me.goto(url("/account"));
      await me.getByRole("region", { name: "Password" }).getByLabel("Current password").fill("alice-pass");
      await me.getByLabel("New password", { exact: true }).fill("a-much-better-pass");
      await me.getByLabel("New password again").fill("a-much-better-pass");
      await me.getByRole("button", { name: "Change password" }).click();
      await me.waitForURL(/saved=password/);
      assert.match((await me.locator("#password .notice").textContent()) ?? "", /other sessions have been signed out/);
      await me.goto(url("/favorites"));
      assert.match(me.url(), /\/favorites$/, "this session stays");
      await elsewhere.goto(`${server.url}/favorites`);
      assert.match(elsewhere.url(), /\/signin\?next=%2Ffavorites$/, "the other session is over");
      await elsewhere.getByLabel("E-mail address").fill("alice@example.com");
      await elsewhere.getByLabel("Password").fill("alice-pass");
      await elsewhere.getByRole("button", { name: "Sign in" }).click();
      assert.match((await elsewhere.locator("#signin-error").textContent()) ?? "", /wrong/, "the old password fails");
      await elsewhere.getByLabel("Password").fill("a-much-better-pass");
      await elsewhere.getByRole("button", { name: "Sign in" }).click();
      await elsewhere.waitForURL(`${server.url}/favorites`);
    });
  });
}
