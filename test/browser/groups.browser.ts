// Groups run in the browser, in Chromium against a real `kairan serve --allow-signup`: a group is
// created, described, people are invited (one with an account, one without), they join, a manager
// is named, a member is removed, the last manager is refused leaving, an invitation is declined,
// someone signs up, an imported placeholder is invited and taken over, the member list and the
// group's archive download.
// The whole story runs twice: at desktop width and at 390 px on the phone pages.
// Run by `npm run test:browser` (Chromium needed).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { insertPlaceholderAccount } from "../../src/services/account/account-write.js";
import { openSqliteStore } from "../../src/store/sqlite/open.js";
import { type ServerProcess, runKairan, startServerProcess } from "../support/cli.js";
import { launchChromium } from "./chromium.js";
import { screensOf } from "./widths.js";

interface Screen {
  readonly name: string;
  readonly base: string;
  readonly options: BrowserContextOptions;
}
const DESKTOP: Screen = {
  name: "desktop",
  base: "",
  options: { locale: "en-US", viewport: { width: 1280, height: 800 } },
};
const PHONE: Screen = {
  name: "390 px",
  base: "/m",
  options: { locale: "en-US", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
};

// Everyday on the phone (the harder layout); `npm run test:long` adds the desktop.
for (const width of screensOf([DESKTOP, PHONE], PHONE)) {
  describe(`groups, members and invitations in Chromium (${width.name})`, () => {
    let dataDir: string;
    let server: ServerProcess;
    let browser: Browser;
    const contexts: BrowserContext[] = [];
    let alice: Page;
    let bob: Page;
    let link = "";
    let groupPath = "";

    const at = (path: string) => `${server.url}${width.base}${path}`;

    async function person(): Promise<Page> {
      const context = await browser.newContext(width.options);
      contexts.push(context);
      const page = await context.newPage();
      // Confirmations (leave, remove) are answered yes, as a person pressing OK.
      page.on("dialog", (dialog) => void dialog.accept());
      return page;
    }

    async function signIn(page: Page, email: string, password: string): Promise<void> {
      await page.goto(at("/"));
      await page.getByLabel("E-mail address").fill(email);
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(at("/").replace(/\/$/, "") + (width.base === "" ? "/" : ""));
    }

    /** Nothing is wider than the screen: no sideways scrolling on a phone. */
    async function assertFits(page: Page): Promise<void> {
      const overflow = await page.evaluate(() => {
        const root = (
          globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
        ).document.documentElement;
        return root.scrollWidth - root.clientWidth;
      });
      assert.ok(overflow <= 0, `the page is ${overflow} px wider than the screen`);
    }

    before(async () => {
      browser = await launchChromium();
      dataDir = mkdtempSync(join(tmpdir(), "kairan-groups-browser-"));
      for (const [name, email, password] of [
        ["Alice Aoki", "alice@example.com", "alice-pass"],
        ["Bob Baba", "bob@example.com", "bob-pass"],
        ["Cho Chiba", "cho@example.com", "cho-pass"],
      ] as const) {
        const made = runKairan([
          "user",
          "add",
          "--name",
          name,
          "--email",
          email,
          "--password",
          password,
          "--data",
          dataDir,
        ]);
        assert.equal(made.status, 0, made.stderr);
      }
      server = await startServerProcess([
        "--port",
        "0",
        "--data",
        dataDir,
        "--no-demo",
        "--log-level",
        "warn",
        "--allow-signup",
      ]);
      alice = await person();
      bob = await person();
    });
    after(async () => {
      for (const context of contexts) await context.close();
      await browser?.close();
      await server?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it("Alice creates a group, describes it, and invites Bob and a newcomer", async () => {
      await signIn(alice, "alice@example.com", "alice-pass");
      await alice.getByRole("link", { name: "New group" }).click();
      await alice.getByLabel("Name", { exact: true }).fill("Choir");
      await alice.getByLabel("Description").fill("Tuesdays, 7 pm.");
      await alice.getByRole("button", { name: "Create group" }).click();
      await alice.waitForURL(/\/g\/1:\d+\/members$/);
      groupPath = new URL(alice.url()).pathname.replace(/^\/m/, "").replace(/\/members$/, "");
      await assertFits(alice);

      await alice.getByRole("link", { name: "Edit the group" }).click();
      await alice.getByLabel("Name", { exact: true }).fill("");
      await alice.getByRole("button", { name: "Save" }).click();
      assert.equal(
        await alice
          .getByLabel("Name", { exact: true })
          .evaluate((input) => (input as unknown as { validity: { valid: boolean } }).validity.valid),
        false,
        "the browser asks for a name",
      );
      await alice.getByLabel("Name", { exact: true }).fill("Town choir");
      await alice.getByRole("button", { name: "Save" }).click();
      await alice.waitForURL(/\/members\?saved=1$/);
      assert.equal(
        await alice.getByRole("status").first().textContent(),
        "The group's name and description are saved.",
      );
      assert.match((await alice.locator(".group-summary").textContent()) ?? "", /Tuesdays, 7 pm\./);

      await alice.getByLabel("E-mail address").fill("bob@example.com");
      await alice.getByRole("button", { name: "Invite" }).click();
      assert.match((await alice.locator("#invitation-link").textContent()) ?? "", /\/join\/1:\d+\//);
      await alice
        .getByRole("link", { name: /Members/ })
        .last()
        .click();
      await alice.getByLabel("E-mail address").fill("dana@example.com");
      await alice.getByRole("button", { name: "Invite" }).click();
      link = (await alice.locator("#invitation-link").textContent()) ?? "";
      assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/join\/1:\d+\/[A-Za-z0-9_-]{32}$/);
      await assertFits(alice);
    });

    it("Bob accepts the invitation on his home page and reads the board", async () => {
      await signIn(bob, "bob@example.com", "bob-pass");
      const invitations = bob.locator("#invitations");
      assert.match((await invitations.textContent()) ?? "", /Town choir[\s\S]*Tuesdays, 7 pm\./);
      await assertFits(bob);
      await invitations.getByRole("button", { name: /^Join\b.*Town choir/s }).click();
      await bob.waitForURL(/\/board$/);
      assert.equal(await bob.locator("#invitations").count(), 0);
    });

    it("a newcomer follows the link, makes an account and joins at once", async () => {
      const dana = await person();
      await dana.goto(link.replace(/\/join\//, `${width.base}/join/`));
      assert.match((await dana.locator("main").textContent()) ?? "", /dana@example\.com is invited to join Town choir/);
      await assertFits(dana);
      await dana.getByLabel("Your name").fill("Dana Doi");
      await dana.getByLabel("Password").fill("dana-pass-1");
      await dana.getByRole("button", { name: "Create account and join" }).click();
      await dana.waitForURL(/\/g\/1:\d+\/board$/);
      assert.match((await dana.locator(".who").textContent()) ?? "", /Dana Doi/);
    });

    it("Alice makes Bob a manager, removes Dana, and may then leave; the last manager could not", async () => {
      await alice.goto(at(`${groupPath}/members`));
      await alice.getByRole("button", { name: "Leave the group" }).click();
      await alice.waitForLoadState();
      assert.match((await alice.locator("main").textContent()) ?? "", /last manager; make another member a manager/);

      await alice.goto(at(`${groupPath}/members`));
      await alice.getByRole("link", { name: "Dana Doi" }).click();
      await alice.getByRole("button", { name: "Remove from the group" }).click();
      await alice.waitForURL(/\/members$/);
      assert.equal(await alice.getByRole("link", { name: "Dana Doi" }).count(), 0);

      await alice.getByRole("link", { name: "Bob Baba" }).click();
      await alice.getByRole("button", { name: "Make manager" }).click();
      await alice.getByRole("button", { name: "Remove as manager" }).waitFor();
      await alice.goto(at(`${groupPath}/members`));
      await alice.getByRole("button", { name: "Leave the group" }).click();
      await alice.waitForURL(/\?left=1$/);
      assert.equal(await alice.getByRole("status").first().textContent(), "You have left the group.");

      await bob.goto(at(`${groupPath}/members`));
      assert.match((await bob.locator(".members").textContent()) ?? "", /Bob Baba[\s\S]*Manager/);
      assert.doesNotMatch((await bob.locator(".members").textContent()) ?? "", /Alice Aoki/);
    });

    it("Bob invites the person of an imported placeholder, who takes it over; the member list and the group's archive download", async () => {
      // What `kairan import cybozulive` leaves for a person without an account: a placeholder member.
      const store = openSqliteStore(join(dataDir, "kairan.sqlite"));
      try {
        await store.transaction(async (tx) => {
          const at = Date.now();
          const user = await insertPlaceholderAccount(
            tx,
            {
              name: "Fumi Fujita",
              email: `fumi.${width.base === "" ? "d" : "m"}@old.example`,
              familyKana: "",
              givenKana: "",
            },
            at,
          );
          const groupId = Number(groupPath.replace(/^\/g\/1:/, ""));
          await tx.memberships.insertJoined({ groupId, userId: user.id, manager: false, notify: true, createdAt: at });
        });
      } finally {
        await store.close();
      }
      await bob.goto(at(`${groupPath}/members`));
      const row = bob.locator(".members li", { hasText: "Fumi Fujita" });
      assert.match((await row.textContent()) ?? "", /imported, not claimed/);
      await assertFits(bob);
      const download = bob.waitForEvent("download");
      await bob.getByRole("link", { name: "Download the member list (CSV)" }).click();
      assert.equal((await download).suggestedFilename(), "Town choir-members.csv");
      // A manager downloads the group's whole archive from the group's settings page.
      await bob.goto(at(`${groupPath}/edit`));
      const archive = bob.waitForEvent("download");
      await bob.getByRole("link", { name: "Download the group's archive (zip)" }).click();
      const saved = await archive;
      assert.match(saved.suggestedFilename(), /^kairan-group-\d+-\d{4}-\d{2}-\d{2}\.zip$/);
      const zip = readFileSync((await saved.path()) ?? "");
      assert.equal(zip.subarray(0, 2).toString("latin1"), "PK");
      assert.ok(zip.includes("manifest.json"), "the archive ends with its manifest");
      await bob.goto(at(`${groupPath}/members`));
      await row.getByLabel(/Their address/).fill(`fumi.${width.name === "desktop" ? "d" : "m"}@new.example`);
      await row.getByRole("button", { name: /Invite to take over/ }).click();
      const claimLink = (await bob.locator("#invitation-link").textContent()) ?? "";
      assert.match(claimLink, /\/join\/1:\d+\/[A-Za-z0-9_-]{32}$/);

      const fumi = await person();
      await fumi.goto(claimLink.replace(/\/join\//, `${width.base}/join/`));
      assert.match((await fumi.locator("main").textContent()) ?? "", /hands you the account “Fumi Fujita”/);
      await assertFits(fumi);
      assert.equal(await fumi.getByLabel("Your name").inputValue(), "Fumi Fujita");
      await fumi.getByLabel("Password").fill("fumi-pass-1");
      await fumi.getByRole("button", { name: "Take over this account" }).click();
      await fumi.waitForURL(/\/g\/1:\d+\/board$/);
      assert.match((await fumi.locator(".who").textContent()) ?? "", /Fumi Fujita/);
      await bob.goto(at(`${groupPath}/members`));
      assert.doesNotMatch((await bob.locator(".members").textContent()) ?? "", /imported, not claimed/);
    });

    it("Cho declines an invitation; a stranger signs up from the sign-in page", async () => {
      await bob.goto(at(`${groupPath}/members`));
      await bob.getByLabel("E-mail address").fill("cho@example.com");
      await bob.getByRole("button", { name: "Invite" }).click();
      const cho = await person();
      await signIn(cho, "cho@example.com", "cho-pass");
      await cho.getByRole("button", { name: /^Decline\b.*Town choir/s }).click();
      await cho.waitForLoadState();
      assert.equal(await cho.locator("#invitations").count(), 0);

      const eve = await person();
      await eve.goto(at("/signin"));
      await eve.getByRole("link", { name: "Create an account" }).click();
      await eve.getByLabel("Your name").fill("Eve Endo");
      await eve.getByLabel("E-mail address").fill("eve@example.com");
      await eve.getByLabel("Password").fill("eve-pass-1");
      await assertFits(eve);
      await eve.getByRole("button", { name: "Create account" }).click();
      await eve.waitForLoadState();
      assert.match((await eve.locator(".who").textContent()) ?? "", /Eve Endo/);
      assert.match((await eve.locator("main").textContent()) ?? "", /You have not joined any group yet/);
    });
  });
}
