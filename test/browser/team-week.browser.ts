// A team's week in the browser alone: from an empty database with one account the operator made,
// two people in two browser contexts create a group, invite and join, post, comment with a file,
// hand a task over and finish it, share a file and its new version, trash and restore a topic,
// change a password and switch the language. No `kairan` command runs after the first account.
// Run by `npm run test:browser` (Chromium needed).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type ServerProcess, runKairan, startServerProcess } from "../support/cli.js";
import { launchChromium } from "./chromium.js";

const ALICE = { name: "Alice Aoki", email: "alice@example.com", password: "alice-pass" };
const BOB = { name: "Bob Baba", email: "bob@example.com", password: "bob-first-pass" };

describe("a team's week in the browser alone (one operator-made account, then no command line)", () => {
  let dataDir: string;
  let server: ServerProcess;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let alice: Page;
  let bob: Page;
  let group = "";
  let topicUrl = "";

  const at = (path: string) => `${server.url}${path}`;

  async function person(): Promise<Page> {
    const context = await browser.newContext({ locale: "en-US", viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    page.on("dialog", (dialog) => void dialog.accept());
    return page;
  }

  async function signIn(page: Page, email: string, password: string): Promise<void> {
    await page.goto(at("/signin"));
    await page.getByLabel("E-mail address").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(at("/"));
  }

  before(async () => {
    browser = await launchChromium();
    dataDir = mkdtempSync(join(tmpdir(), "kairan-team-week-"));
    const made = runKairan([
      "user",
      "add",
      "--name",
      ALICE.name,
      "--email",
      ALICE.email,
      "--password",
      ALICE.password,
      "--data",
      dataDir,
    ]);
    assert.equal(made.status, 0, made.stderr);
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

  it("Alice creates a group; Bob makes his account, is invited and accepts on his home page", async () => {
    await signIn(alice, ALICE.email, ALICE.password);
    await alice.getByRole("link", { name: "New group" }).click();
    await alice.getByLabel("Name", { exact: true }).fill("Week team");
    await alice.getByLabel("Description").fill("Everything we do this week.");
    await alice.getByRole("button", { name: "Create group" }).click();
    await alice.waitForURL(/\/g\/1:\d+\/members$/);
    group = new URL(alice.url()).pathname.replace(/\/members$/, "");

    await bob.goto(at("/signin"));
    await bob.getByRole("link", { name: "Create an account" }).click();
    await bob.getByLabel("Your name").fill(BOB.name);
    await bob.getByLabel("E-mail address").fill(BOB.email);
    await bob.getByLabel("Password").fill(BOB.password);
    await bob.getByRole("button", { name: "Create account" }).click();
    await bob.waitForLoadState();
    assert.match((await bob.locator("main").textContent()) ?? "", /You have not joined any group yet/);

    await alice.getByLabel("E-mail address").fill(BOB.email);
    await alice.getByRole("button", { name: "Invite" }).click();
    assert.match((await alice.locator("#invitation-link").textContent()) ?? "", /\/join\/1:\d+\//);

    await bob.goto(at("/"));
    await bob
      .locator("#invitations")
      .getByRole("button", { name: /^Join\b.*Week team/s })
      .click();
    await bob.waitForURL(at(`${group}/board`));
  });

  it("Alice posts a topic and Bob comments on it with a file", async () => {
    await alice.goto(at(`${group}/board/new`));
    await alice.getByLabel("Title").fill("Kick-off on Monday");
    await alice.getByLabel("Text").fill("Agenda: https://example.org/agenda");
    await alice.getByRole("button", { name: "Post topic" }).click();
    await alice.waitForURL(/\/board\/1:\d+$/);
    topicUrl = new URL(alice.url()).pathname;
    assert.equal(
      await alice.getByRole("link", { name: "https://example.org/agenda" }).getAttribute("rel"),
      "noopener nofollow",
    );

    await bob.goto(at(topicUrl));
    await bob.getByLabel("Comment", { exact: true }).fill("Notes attached.");
    await bob
      .getByLabel(/^Files/)
      .setInputFiles([{ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("monday notes\n") }]);
    await bob.getByRole("button", { name: "Post comment" }).click();
    await bob.waitForURL(/#comment-1$/);
    await alice.goto(at(topicUrl));
    assert.match((await alice.locator("#comments").textContent()) ?? "", /Notes attached\.[\s\S]*notes\.txt/);
  });

  it("Alice creates a task and assigns it to Bob, who marks it done", async () => {
    await alice.goto(at(`${group}/tasks`));
    await alice.getByRole("link", { name: "New task" }).click();
    await alice.getByLabel("Title").fill("Book the room");
    await alice.getByLabel("Assignee").selectOption({ label: BOB.name });
    await alice.getByLabel("Date").fill("2030-05-01");
    await alice.getByRole("button", { name: "Add task" }).click();
    await alice.waitForURL(/\/tasks\/1:\d+$/);
    const taskUrl = new URL(alice.url()).pathname;

    await bob.goto(at(taskUrl));
    assert.match((await bob.locator(".facts").textContent()) ?? "", new RegExp(BOB.name));
    await bob.getByRole("button", { name: "Mark done" }).click();
    await bob.waitForURL(at(taskUrl));
    await bob.getByRole("button", { name: "Reopen" }).waitFor();
    await alice.goto(at(`${group}/tasks`));
    await alice.getByRole("button", { name: "Reopen: Book the room" }).waitFor();
  });

  it("Alice uploads a file and a new version of it", async () => {
    await alice.goto(at(`${group}/files`));
    await alice
      .getByLabel("File", { exact: true })
      .setInputFiles({ name: "plan.txt", mimeType: "text/plain", buffer: Buffer.from("plan v1\n") });
    await alice.getByRole("button", { name: "Upload", exact: true }).click();
    await alice.waitForURL(/\/files\/1:\d+$/);
    await alice
      .getByLabel("New version", { exact: true })
      .setInputFiles({ name: "plan.txt", mimeType: "text/plain", buffer: Buffer.from("plan v2, longer\n") });
    await alice.getByLabel("Change note (optional)").fill("Room booked");
    await alice.getByRole("button", { name: "Upload version" }).click();
    await alice.getByText("Room booked").first().waitFor();

    await bob.goto(alice.url());
    const href = await bob.getByRole("link", { name: "Download", exact: true }).getAttribute("href");
    const answer = await bob.request.get(at(href ?? assert.fail("a download link")));
    assert.equal(await answer.text(), "plan v2, longer\n", "the newest version is the file");
  });

  it("Alice moves the topic to the trash and restores it", async () => {
    await alice.goto(at(topicUrl));
    await alice.getByRole("button", { name: "Move to trash" }).click();
    await alice.getByText("This topic is in the trash.").waitFor();
    await alice.goto(at(`${group}/board`));
    assert.equal(await alice.getByRole("link", { name: "Kick-off on Monday" }).count(), 0, "gone from the board");
    await alice.getByRole("link", { name: "Trash" }).click();
    await alice.getByRole("link", { name: "Kick-off on Monday" }).click();
    await alice.getByRole("button", { name: "Restore" }).click();
    await alice.waitForURL(at(topicUrl));
    await alice.goto(at(`${group}/board`));
    await alice.getByRole("link", { name: "Kick-off on Monday" }).waitFor();
  });

  it("Bob changes his password (the old one stops working) and switches to Japanese", async () => {
    await bob.goto(at("/account"));
    await bob.getByRole("region", { name: "Password" }).getByLabel("Current password").fill(BOB.password);
    await bob.getByLabel("New password", { exact: true }).fill("bob-second-pass");
    await bob.getByLabel("New password again").fill("bob-second-pass");
    await bob.getByRole("button", { name: "Change password" }).click();
    await bob.waitForURL(/saved=password/);

    const elsewhere = await person();
    await elsewhere.goto(at("/signin"));
    await elsewhere.getByLabel("E-mail address").fill(BOB.email);
    await elsewhere.getByLabel("Password").fill(BOB.password);
    await elsewhere.getByRole("button", { name: "Sign in" }).click();
    assert.match(elsewhere.url(), /\/signin/, "the old password is refused");
    await signIn(elsewhere, BOB.email, "bob-second-pass");

    await bob.goto(at("/account"));
    await bob.getByLabel("Language", { exact: true }).selectOption({ label: "日本語" });
    await bob.getByRole("button", { name: "Save language and time zone" }).click();
    await bob.waitForURL(/saved=preferences/);
    assert.equal(await bob.getByRole("heading", { level: 1 }).textContent(), "アカウント");
    await bob.goto(at(`${group}/board`));
    assert.equal(await bob.locator("html").getAttribute("lang"), "ja");
    await alice.goto(at(`${group}/board`));
    assert.equal(await alice.locator("html").getAttribute("lang"), "en", "a language is each person's own");
  });
});
