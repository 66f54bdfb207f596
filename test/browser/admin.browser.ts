// The administration in Chromium, as the demo site's administrator uses it on its first day:
// from the header to /admin, the sign-up policy changed, a user created and then disabled, and
// each of those read back in the audit log with its actor and address; the original service's
// export uploaded, checked, imported and read in its group. Run by `npm run test:browser`.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { type ServerProcess, startServerProcess } from "../support/cli.js";
import { seriousViolations } from "./axe.js";
import { launchChromium } from "./chromium.js";
import { DESKTOP, contextAt } from "./widths.js";

/** The demo workspace's administrator. */
const ADMIN = { email: "alice@example.com", password: "kairan-demo", label: "Alice Aoki <alice@example.com>" };

/** The original service's export in English, as a zip (test/fixtures/cybozulive/make.py). */
const EXPORT_ZIP = resolve(import.meta.dirname, "../fixtures/cybozulive/zips/export-en-utf8-names.zip");

describe("the administration in Chromium: sign-up policy, a new user disabled, the audit log", () => {
  let dataDir: string;
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;

  before(async () => {
    browser = await launchChromium();
    dataDir = mkdtempSync(join(tmpdir(), "kairan-admin-browser-"));
    server = await startServerProcess(["--port", "0", "--data", dataDir, "--log-level", "warn"]);
    // bypassCSP: axe-core is injected as a script.
    page = await (await contextAt(browser, DESKTOP, { locale: "en-US", bypassCSP: true })).newPage();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("changes the sign-up policy, creates a user, disables them, and reads all three in the audit log", async () => {
    await page.goto(`${server.url}/signin`);
    await page.getByLabel("E-mail address").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => !url.pathname.endsWith("/signin"));

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Administration" }).click();
    await page.waitForURL(`${server.url}/admin`);
    const admin = page.getByRole("navigation", { name: "Administration" });

    await admin.getByRole("link", { name: "Settings" }).click();
    await page.getByLabel("Anyone").check();
    await page.getByRole("button", { name: "Save the settings" }).click();
    await page.getByText("The settings are saved and apply now.").waitFor();
    assert.equal(await page.getByLabel("Anyone").isChecked(), true, "the form shows the new policy");

    await admin.getByRole("link", { name: "Users" }).click();
    await page.getByRole("link", { name: "New user" }).click();
    await page.getByLabel("Name").fill("Nina New");
    await page.getByLabel("Email address").fill("nina@example.com");
    await page.getByLabel("Password (optional)").fill("a long enough password");
    await page.getByRole("button", { name: "Create the account" }).click();
    await page.getByRole("heading", { name: "Nina New" }).waitFor();
    await page.getByRole("button", { name: "Disable" }).click();
    await page.getByRole("button", { name: "Enable" }).waitFor();
    assert.match((await page.locator("dl.facts").textContent()) ?? "", /Disabled/);

    await admin.getByRole("link", { name: "Audit log" }).click();
    const rows = page.locator("#audit-rows tbody tr");
    const texts = (await rows.allTextContents()).map((text) => text.replace(/\s+/g, " ").trim());
    const row = (action: string) => texts.find((text) => text.includes(` ${action} `));
    for (const action of ["user.disable", "user.create", "settings.change"]) {
      const found = row(action);
      assert.ok(found, `the log shows ${action}:\n${texts.join("\n")}`);
      assert.ok(found.includes(ADMIN.label), `${action} names its actor`);
      assert.match(found, /127\.0\.0\.1|::1/, `${action} names the address`);
    }
    assert.match(row("settings.change") ?? "", /"signupPolicy":\{"before":"invitation","after":"open"\}/);
    assert.ok(row("user.disable")?.includes("Nina New <nina@example.com>"), "on whom");
    // Newest first.
    assert.ok(
      texts.findIndex((t) => t.includes(" user.disable ")) < texts.findIndex((t) => t.includes(" user.create ")),
    );

    await page.getByLabel("Action").selectOption("user.create");
    await page.getByRole("button", { name: "Filter" }).click();
    assert.equal(await rows.count(), 1, "filtered by action");
    assert.deepEqual(await seriousViolations(page), [], "the filtered log");
  });

  it("archives the demo group (its board says so and refuses a new topic), restores it, and deletes a new group once its name is typed", async () => {
    const admin = page.getByRole("navigation", { name: "Administration" });
    await admin.getByRole("link", { name: "Groups" }).click();
    await page.waitForURL(`${server.url}/admin/groups`);
    await page.locator("table.admin-table tbody tr").first().getByRole("link").click();
    await page.waitForURL(/\/admin\/groups\/1:\d+$/);
    const groupPath = new URL(page.url()).pathname.replace("/admin/groups/", "/g/");
    await page.getByRole("button", { name: "Archive the group" }).click();
    await page.getByRole("button", { name: "Restore the group" }).waitFor();
    assert.match((await page.locator("dl.facts").textContent()) ?? "", /Archived/);
    assert.deepEqual(await seriousViolations(page), [], "an archived group's administration page");

    await page.goto(`${server.url}${groupPath}/board`);
    await page.getByText("This group is archived").waitFor();
    await page.goto(`${server.url}${groupPath}/board/new`);
    await page.getByLabel("Title").fill("Written while archived");
    const refused = page.waitForResponse((r) => r.request().method() === "POST");
    await page
      .getByRole("button", { name: /Post|Save/ })
      .first()
      .click();
    assert.equal((await refused).status(), 403, "a new topic is refused");
    await page
      .getByText(/archived/)
      .first()
      .waitFor();

    await page.goto(`${server.url}${groupPath.replace("/g/", "/admin/groups/")}`);
    await page.getByRole("button", { name: "Restore the group" }).click();
    await page.getByRole("button", { name: "Archive the group" }).waitFor();
    await page.goto(`${server.url}${groupPath}/board`);
    assert.equal(await page.getByText("This group is archived").count(), 0, "restored");

    await page.goto(`${server.url}/admin/groups/new`);
    await page.getByLabel("Name", { exact: true }).fill("Short-lived");
    await page.getByLabel("First manager (email address)").fill(ADMIN.email);
    await page.getByRole("button", { name: "Create the group" }).click();
    await page.getByRole("heading", { name: "Short-lived" }).waitFor();
    const confirm = page.getByLabel("Type the group's name, Short-lived, to confirm");
    await confirm.fill("short-lived");
    await page.getByRole("button", { name: "Delete the group" }).click();
    await page.getByText("Type the group's name exactly to delete it.").waitFor();
    await page.getByLabel("Type the group's name, Short-lived, to confirm").fill("Short-lived");
    await page.getByRole("button", { name: "Delete the group" }).click();
    await page.getByText("The group Short-lived was deleted.").waitFor();
    assert.equal(await page.getByRole("link", { name: "Short-lived" }).count(), 0);

    await admin.getByRole("link", { name: "Audit log" }).click();
    const texts = (await page.locator("#audit-rows tbody tr").allTextContents()).join("\n");
    for (const action of ["group.archive", "group.restore", "group.create", "group.delete"])
      assert.ok(texts.includes(action), `the log shows ${action}`);
  });

  it("uploads the original service's export: a check changes nothing and keeps the file chosen, the import makes the topics, the group shows them", async () => {
    const admin = page.getByRole("navigation", { name: "Administration" });
    await page.goto(`${server.url}/admin`);
    await admin.getByRole("link", { name: "Import" }).click();
    await page.waitForURL(`${server.url}/admin/import`);
    assert.deepEqual(await seriousViolations(page), [], "the import form");
    const fill = async () => {
      await page.getByLabel("Into the group").selectOption({ label: "Aoba Coffee Web Team" });
      await page.getByLabel("Time zone of the export's times").fill("UTC");
      await page.getByLabel("The export's zip file").setInputFiles(EXPORT_ZIP);
    };
    await fill();
    await page.getByRole("button", { name: "Check (dry run)" }).click();
    await page.getByRole("heading", { name: "Check: nothing was changed" }).waitFor();
    const topics = page.locator('#import-counts tr[data-count="topics"] td');
    assert.deepEqual(await topics.allTextContents(), ["2", "0"], "two topics would be made");
    assert.match((await page.locator("#import-files").textContent()) ?? "", /live_Forum_20180713\.csv\s*board/);
    assert.deepEqual(await seriousViolations(page), [], "the report");
    const link = page.locator("#import-group-link");
    assert.equal(await link.count(), 1, "the group's link");
    const board = await page.context().request.get(`${server.url}${await link.getAttribute("href")}/board`);
    assert.doesNotMatch(await board.text(), />Welcome</, "the check made nothing");

    // The check answered in place: the zip chosen is still chosen, so Import follows at once.
    assert.equal(
      await page
        .getByLabel("The export's zip file")
        .evaluate((input) => (input as unknown as { files: unknown[] }).files.length),
      1,
    );
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByRole("heading", { name: "Imported" }).waitFor();
    assert.deepEqual(await topics.allTextContents(), ["2", "0"], "two topics made");
    await page.locator("#import-group-link").click();
    // A group opens on its board.
    await page.waitForURL(/\/g\/1:\d+\/board$/);
    await page.getByRole("link", { name: "Welcome", exact: true }).click();
    await page.getByRole("heading", { name: "Welcome", exact: true }).waitFor();
    await page.getByText("please introduce yourselves.").waitFor();
  });
});
