// A small team's week in Chromium (issue 31), walked at desktop width and on a 390 x 844 phone, in
// English and in Japanese: a manager makes a board folder and a files folder and files a topic in
// it; a reader who had seen the topic finds "2 new comments" (in the list and on the topic); a
// comment in Markdown renders its list and link while its raw HTML never runs; an edited comment
// shows as edited, in the page and in the API's feed; a new member's badge equals the API's
// unconfirmed count and drops to 0 after reading; a Tokyo browser sees a 00:30 UTC event at
// 09:30; the group week view shows two members' events (the other's personal one as busy only); a
// chat message goes with Enter; search finds the event and the message. Every page visited is
// checked by axe and for sideways scrolling. Run by `npm run test:browser`.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type Lang, type Translate, translator } from "../../src/web/i18n/i18n.js";
import { type ServerProcess, runKairan, startServerProcess } from "../support/cli.js";
import { shortOrLong } from "../support/long.js";
import { seriousViolations } from "./axe.js";
import { launchChromium } from "./chromium.js";
import { DESKTOP, PHONE, type Width, contextAt, openMenu, overflow } from "./widths.js";

const SEED = fileURLToPath(new URL("./daily-use.seed.json", import.meta.url));

/**
 * Each screen and each language, a failure naming the one it happened on: every run has both
 * screens and both languages (the desktop in English, the phone in Japanese), and
 * `npm run test:long` adds the two other pairs.
 */
const RUNS: readonly { readonly width: Width; readonly lang: Lang }[] = [
  { width: DESKTOP, lang: "en" },
  { width: PHONE, lang: "ja" },
  ...shortOrLong<{ width: Width; lang: Lang }[]>(
    [],
    [
      { width: PHONE, lang: "en" },
      { width: DESKTOP, lang: "ja" },
    ],
  ),
];

/** A comment in Markdown: a list, a link, and raw HTML that must neither run nor become elements. */
const MARKDOWN =
  "Plan:\n\n- **cake**\n- [the shop](https://shop.example/cake)\n\n<img src=x onerror=alert(1)><script>alert(2)</script>";

/** The header's count of unconfirmed notifications as the page shows it (0 when none is shown). */
async function badge(page: Page): Promise<number> {
  const shown = page.locator('.site-header [data-unread="notifications"]:visible');
  if ((await shown.count()) === 0) return 0;
  return Number(await shown.first().locator('[aria-hidden="true"]').first().textContent());
}

/** Waits until the header of `page` shows `n` (the count is kept live by the page's script). */
async function badgeBecomes(page: Page, n: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await badge(page)) !== n) {
    assert.ok(Date.now() < deadline, `the badge shows ${await badge(page)}, not ${n}`);
    await page.waitForTimeout(100);
  }
}

for (const { width, lang } of RUNS) {
  const screen = width.name === "phone" ? "390 x 844 phone" : "desktop";
  describe(`a team's week in Chromium (${screen}, ${lang === "en" ? "English" : "Japanese"})`, () => {
    const t: Translate = translator(lang);
    let dataDir: string;
    let server: ServerProcess;
    let browser: Browser;
    const contexts: BrowserContext[] = [];
    let alice: Page;
    let bob: Page;
    let carol: Page;
    let carolToken: string;
    let topicUrl = "";
    let eventUrl = "";
    let scriptRan = false;
    let pagesChecked = 0;

    const at = (path: string) => `${server.url}${path}`;

    /** The page as it is now: axe finds nothing serious, and it never scrolls sideways. */
    async function look(page: Page, what: string): Promise<void> {
      await page.waitForLoadState();
      const violations = await seriousViolations(page);
      assert.deepEqual(violations, [], `${what}:\n${violations.join("\n")}`);
      assert.equal(await overflow(page), 0, `${what} scrolls sideways`);
      pagesChecked += 1;
    }

    async function person(timezoneId: string): Promise<Page> {
      // bypassCSP: axe-core is added as a script tag (the pages allow only their own scripts).
      const context = await contextAt(browser, width, {
        locale: lang === "en" ? "en-US" : "ja-JP",
        timezoneId,
        bypassCSP: true,
      });
      contexts.push(context);
      const page = await context.newPage();
      page.on("dialog", (dialog) => {
        scriptRan = true;
        void dialog.dismiss();
      });
      return page;
    }

    async function signIn(page: Page, email: string, password: string): Promise<void> {
      await page.goto(at("/signin"));
      await page.getByLabel(t("signin.email"), { exact: true }).fill(email);
      await page.getByLabel(t("signin.password"), { exact: true }).fill(password);
      await page.getByRole("button", { name: t("signin.submit"), exact: true }).click();
      await page.waitForURL(at("/"));
      await look(page, "the home page");
    }

    /** Follows the group's navigation (under the header, never folded) to one of its areas. */
    async function groupArea(page: Page, label: string, path: RegExp): Promise<void> {
      await page.locator("nav.group-nav").getByRole("link", { name: label, exact: true }).click();
      await page.waitForURL(path);
      await look(page, `the group's ${label}`);
    }

    /** What `GET /api/notification/V2?unconfirmed=true` lists for Carol. */
    async function apiUnconfirmed(): Promise<number> {
      const answer = await fetch(at("/api/notification/V2?unconfirmed=true&max-results=100"), {
        headers: { authorization: `Bearer ${carolToken}` },
      });
      assert.equal(answer.status, 200);
      return ((await answer.text()).match(/<entry>/g) ?? []).length;
    }

    before(async () => {
      browser = await launchChromium();
      dataDir = mkdtempSync(join(tmpdir(), "kairan-daily-use-"));
      const run = (args: string[]) => {
        const done = runKairan([...args, "--data", dataDir, "--log-level", "silent"]);
        assert.equal(done.status, 0, done.stderr);
        return done.stdout;
      };
      run(["seed", SEED]);
      run([
        "app",
        "add",
        "--name",
        "Reader",
        "--level",
        "comments",
        "--key",
        "reader-key",
        "--secret",
        "reader-secret",
      ]);
      carolToken =
        /token: +(\S+)/.exec(run(["token", "add", "--user", "carol@example.com", "--app", "reader-key"]))?.[1] ?? "";
      assert.ok(carolToken, "a token for Carol");
      server = await startServerProcess(["--port", "0", "--data", dataDir, "--no-demo", "--log-level", "warn"]);
      alice = await person("UTC");
      bob = await person("Asia/Tokyo");
      carol = await person("UTC");
    });
    after(async () => {
      await browser?.close();
      await server?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it("a manager makes a board folder and files a topic in it, and makes a files folder", async () => {
      await signIn(alice, "alice@example.com", "alice-pass");
      await alice.getByRole("link", { name: "Week Team", exact: true }).first().click();
      await alice.waitForURL(/\/g\/1:1\//);
      await groupArea(alice, t("nav.board"), /\/g\/1:1\/board$/);
      await alice.getByRole("link", { name: t("folders.manage"), exact: true }).click();
      await alice.waitForURL(/\/board\/folders$/);
      await look(alice, "the board's folders");
      await alice.getByLabel(t("folders.newName"), { exact: true }).fill("Plans 2027");
      await alice.getByRole("button", { name: t("folders.add"), exact: true }).click();
      await alice.waitForURL(/\/board\/folders$/);
      assert.equal(await alice.getByLabel(t("folders.name"), { exact: true }).last().inputValue(), "Plans 2027");
      await look(alice, "the board's folders with one");

      await groupArea(alice, t("nav.board"), /\/g\/1:1\/board$/);
      await alice.getByRole("link", { name: t("board.new"), exact: true }).click();
      await alice.waitForURL(/\/board\/new/);
      await look(alice, "the new topic form");
      await alice.getByLabel(t("edit.fieldTitle"), { exact: true }).fill("Roadmap draft");
      await alice.getByLabel(t("edit.fieldBody"), { exact: true }).fill("What we plan next year.");
      await alice.getByLabel(t("topic.folder"), { exact: true }).selectOption({ label: "Plans 2027" });
      await alice.getByRole("button", { name: t("edit.create"), exact: true }).click();
      await alice.waitForURL(/\/board\/1:\d+$/);
      topicUrl = alice.url();
      await look(alice, "the new topic");

      await groupArea(alice, t("nav.board"), /\/g\/1:1\/board$/);
      const folders = alice.getByRole("navigation", { name: t("board.folders"), exact: true });
      await folders.getByRole("link", { name: "Plans 2027", exact: true }).click();
      await alice.waitForURL(/folder=1%3A\d+/);
      assert.equal(await alice.getByRole("link", { name: "Roadmap draft", exact: true }).count(), 1, "filed there");
      await look(alice, "the board's folder");

      await groupArea(alice, t("nav.files"), /\/g\/1:1\/files$/);
      await alice.getByRole("link", { name: t("folders.manage"), exact: true }).click();
      await alice.waitForURL(/\/files\/folders$/);
      await alice.getByLabel(t("folders.newName"), { exact: true }).fill("Contracts");
      await alice.getByRole("button", { name: t("folders.add"), exact: true }).click();
      await alice.waitForURL(/\/files\/folders$/);
      await look(alice, "the files' folders with one");
      await groupArea(alice, t("nav.files"), /\/g\/1:1\/files$/);
      assert.equal(await folders.getByRole("link", { name: "Contracts", exact: true }).count(), 1);
      assert.equal(await alice.locator("select[name=folder] option", { hasText: "Contracts" }).count(), 1);
    });

    it("a comment in Markdown renders a list and a link, raw HTML does not run; an edited comment shows as edited, in the API too", async () => {
      // Bob, in Tokyo, reads the topic before anyone comments (his zone is taken at this first sign-in).
      await signIn(bob, "bob@example.com", "bob-pass");
      await bob.goto(topicUrl);
      await look(bob, "the topic, read by Bob");

      await alice.goto(topicUrl);
      const comment = alice.getByLabel(t("comments.text"), { exact: true });
      await comment.fill(MARKDOWN);
      await alice.getByRole("button", { name: t("comments.submit"), exact: true }).click();
      await alice.waitForURL(/#comment-1$/);
      const shown = alice.locator("#comment-1 .markdown:not(.preview)");
      assert.deepEqual(await shown.locator("li").allTextContents(), ["cake", "the shop"]);
      const link = shown.getByRole("link", { name: "the shop", exact: true });
      assert.equal(await link.getAttribute("href"), "https://shop.example/cake");
      assert.equal(await shown.locator("img, script").count(), 0, "no element from the raw HTML");
      assert.match((await shown.textContent()) ?? "", /<script>alert\(2\)<\/script>/, "shown as text");
      assert.equal(scriptRan, false, "no script ran");
      await look(alice, "the topic with a Markdown comment");

      await comment.fill("See you on Monday.");
      await alice.getByRole("button", { name: t("comments.submit"), exact: true }).click();
      await alice.waitForURL(/#comment-2$/);
      const second = alice.locator("#comment-2");
      await second.locator("summary", { hasText: t("comments.edit") }).click();
      await second.getByLabel(t("comments.editText", { n: 2 }), { exact: true }).fill("See you on **Tuesday**.");
      await second.getByRole("button", { name: t("comments.editSave"), exact: true }).click();
      await alice.locator("#comment-2 .edited").waitFor();
      assert.equal(
        (await alice.locator("#comment-2 .markdown:not(.preview)").first().textContent())?.trim(),
        "See you on Tuesday.",
      );
      await look(alice, "the topic with an edited comment");

      const topic = /\/board\/(1:\d+)$/.exec(topicUrl)?.[1];
      const feed = await fetch(at(`/api/comment/V2?entry=GROUP,1:1,BOARD,${topic}`), {
        headers: { authorization: `Bearer ${carolToken}` },
      });
      assert.equal(feed.status, 200);
      const xml = await feed.text();
      assert.match(xml, /See you on \*\*Tuesday\*\*\./, "the API's feed has the new text");
      assert.doesNotMatch(xml, /Monday/);
      assert.match(xml, /<published>/, "and marks the comment as edited (written before it was updated)");
    });

    it("shows the reader who had seen the topic its 2 new comments", async () => {
      await groupArea(bob, t("nav.board"), /\/g\/1:1\/board$/);
      const row = bob.locator(".row", { has: bob.getByRole("link", { name: "Roadmap draft", exact: true }) });
      assert.equal((await row.locator(".new-mark").textContent())?.trim(), t("unread.newComments", { n: 2 }));
      // The topic's page says it too and marks the two (no axe here: the page was checked above).
      await row.getByRole("link", { name: "Roadmap draft", exact: true }).click();
      await bob.waitForURL(/\/board\/1:\d+$/);
      assert.equal((await bob.locator("#new-comments").textContent())?.trim(), t("unread.newComments", { n: 2 }));
      assert.equal(await bob.locator("li.comment.is-new").count(), 2);
    });

    it("shows a new member the API's unconfirmed count, and 0 once read", async () => {
      await signIn(carol, "carol@example.com", "carol-pass");
      const shown = await badge(carol);
      assert.ok(shown > 0, "Carol has been notified of the new topic");
      assert.equal(shown, await apiUnconfirmed(), "the badge says what the API lists");
      if (width.name === "phone") {
        const header = await carol.locator(".site-header").boundingBox();
        assert.ok(header && header.height <= 80, `the folded header is ${header?.height} px tall`);
      }
      await carol.locator('.site-header a[href$="/notifications"]:visible').first().click();
      await carol.waitForURL(/\/notifications$/);
      await look(carol, "the notifications");
      await carol.getByRole("button", { name: t("notifications.confirmAll"), exact: true }).click();
      await carol.waitForLoadState();
      await badgeBecomes(carol, 0);
      assert.equal(await apiUnconfirmed(), 0);
      await look(carol, "the notifications, all read");
    });

    it("shows a Tokyo browser an event at 00:30 UTC at 09:30", async () => {
      await alice.goto(at("/g/1:1/events/new?date=2030-05-01"));
      await look(alice, "the new event form");
      await alice.locator("#event-title").fill("Giraffe stand-up");
      await alice.locator("#event-start-time").fill("00:30");
      await alice.locator("#event-end-time").fill("00:45");
      await alice.locator("#event-zone").fill("UTC");
      await alice.getByRole("button", { name: t("eventForm.create"), exact: true }).click();
      await alice.waitForURL(/\/g\/1:1\/events\/1:\d+$/);
      eventUrl = alice.url();
      await look(alice, "the new event");
      await bob.goto(eventUrl);
      const when = (await bob.locator("#event-when").textContent()) ?? "";
      assert.match(when, /(^|\D)9:30(\D|$)/, `Bob reads ${when}`);
      assert.match(when, /Asia\/Tokyo/, "naming the zone");
      await look(bob, "the event in Tokyo");
    });

    it("shows two members' events in the group week view, another's personal one only as busy", async () => {
      await bob.goto(at("/schedule/new?date=2030-05-01"));
      await look(bob, "the new personal event form");
      await bob.locator("#event-title").fill("Dentist");
      await bob.locator("#event-start-time").fill("10:00");
      await bob.locator("#event-end-time").fill("11:00");
      await bob.getByRole("button", { name: t("eventForm.create"), exact: true }).click();
      await bob.waitForURL(/\/schedule\/1:\d+$/);
      await look(bob, "the personal event");

      await alice.goto(at("/g/1:1/events?view=members&date=2030-05-01"));
      const rowOf = (name: string) =>
        alice.locator("table.cal-members tbody tr", { has: alice.locator("th", { hasText: name }) });
      const titles = (name: string) => rowOf(name).locator('td[data-date="2030-05-01"] .cal-title').allTextContents();
      assert.deepEqual(await titles("Alice Aoki"), ["Giraffe stand-up"]);
      assert.deepEqual(await titles("Bob Baba"), ["Giraffe stand-up"]);
      assert.equal(await rowOf("Bob Baba").locator('td[data-date="2030-05-01"] .cal-busy').count(), 1, "Bob is busy");
      assert.doesNotMatch((await alice.locator("main").textContent()) ?? "", /Dentist/, "without what");
      await look(alice, "the group week view");
    });

    it("sends a chat message with Enter, and search finds it and the event", async () => {
      await openMenu(alice);
      await alice
        .getByRole("navigation", { name: t("nav.main"), exact: true })
        .getByRole("link", { name: t("nav.chat") })
        .click();
      await alice.waitForURL(/\/mpChat$/);
      await look(alice, "the chat rooms");
      await alice.getByLabel(t("chat.roomTitle"), { exact: true }).fill("Week room");
      await alice.getByLabel("Bob Baba", { exact: true }).check();
      await alice.getByRole("button", { name: t("chat.create"), exact: true }).click();
      await alice.waitForURL(/\/mpChat\/view\?chatRoomId=/);
      const text = alice.getByRole("textbox", { name: t("chat.text"), exact: true });
      await text.fill("giraffe photos at ten");
      await text.press("Enter");
      await alice.locator("#chat-messages > li .markdown", { hasText: "giraffe photos at ten" }).waitFor();
      await look(alice, "the chat room with a message");

      await openMenu(alice);
      const box = alice.getByRole("searchbox", { name: t("search.label"), exact: true }).first();
      await box.fill("giraffe");
      await box.press("Enter");
      await alice.waitForURL(/\/search\?q=giraffe/);
      const rows = alice.locator(".search-results .row");
      const event = rows.filter({ hasText: "Giraffe stand-up" }).filter({ hasText: t("search.kind.G_SCHEDULE") });
      assert.equal(await event.count(), 1, "the event");
      assert.equal(await rows.filter({ hasText: t("search.inRoom", { room: "Week room" }) }).count(), 1, "the message");
      await look(alice, "the search results");
      assert.ok(pagesChecked >= 25, `${pagesChecked} pages checked`);
    });
  });
}
