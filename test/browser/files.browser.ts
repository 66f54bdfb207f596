// Shared files in Chromium, at desktop width and at 390 px on the phone pages: upload by the
// button (with progress) and by drag and drop, a new version, a move between folders, trash,
// restore and delete for good; and the upload form without JavaScript.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { type ServerProcess, runKairan, startServerProcess } from "../support/cli.js";
import { launchChromium } from "./chromium.js";
import { signIn } from "./sign-in.js";

const SEED = {
  users: [
    { ref: "alice", name: "Alice Aoki", email: "alice@example.com", password: "alice-pass" },
    { ref: "bob", name: "Bob Baba", email: "bob@example.com", password: "bob-pass" },
  ],
  groups: [
    {
      ref: "team",
      name: "Files Team",
      members: [{ user: "alice", manager: true }, { user: "bob" }],
      cabinetFolders: [
        { ref: "docs", name: "Documents" },
        { ref: "archive", name: "Archive" },
      ],
    },
  ],
};

/** The two ways in: Alice at her desk, Bob on his phone (the /m pages at 390 px). */
const WIDTHS: readonly {
  name: string;
  email: string;
  password: string;
  prefix: string;
  options: BrowserContextOptions;
}[] = [
  {
    name: "desktop",
    email: "alice@example.com",
    password: "alice-pass",
    prefix: "",
    options: { locale: "en-US", viewport: { width: 1280, height: 900 } },
  },
  {
    name: "390 px",
    email: "bob@example.com",
    password: "bob-pass",
    prefix: "/m",
    options: { locale: "en-US", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  },
];

/** Signs in from `url`, which the sign-in page returns to. */
async function assertNoSidewaysScroll(page: Page, width: number): Promise<void> {
  const scrollWidth = await page.evaluate<number>("document.documentElement.scrollWidth");
  assert.ok(scrollWidth <= width, `no sideways scrolling (page is ${scrollWidth}px wide, window ${width}px)`);
}

describe("shared files in Chromium", () => {
  let dataDir: string;
  let server: ServerProcess;
  let browser: Browser;

  before(async () => {
    browser = await launchChromium();
    dataDir = mkdtempSync(join(tmpdir(), "kairan-browser-files-"));
    const seedPath = join(dataDir, "seed.json");
    writeFileSync(seedPath, JSON.stringify(SEED));
    const seeded = runKairan(["seed", seedPath, "--data", dataDir, "--log-level", "silent"]);
    assert.equal(seeded.status, 0, seeded.stderr);
    server = await startServerProcess(["--port", "0", "--data", dataDir, "--no-demo", "--log-level", "warn"]);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  for (const width of WIDTHS) {
    describe(`at ${width.name}`, () => {
      let page: Page;
      let files: string;
      let fileUrl: string;
      const viewport = width.options.viewport?.width ?? 1280;

      before(async () => {
        page = await (await browser.newContext(width.options)).newPage();
        files = `${server.url}${width.prefix}/g/1:1/files`;
        await signIn(page, `${server.url}${width.prefix || "/"}`, width.email, width.password);
      });
      after(() => page.context().close());

      it("uploads a file with the button into a folder, showing the upload's progress", async () => {
        const progress: string[] = [];
        await page.exposeFunction("recordProgress", (text: string) => progress.push(text));
        await page.goto(files);
        await assertNoSidewaysScroll(page, viewport);
        // Every text the progress line shows, reported to the test as it changes.
        await page.evaluate(`(() => {
          const status = document.querySelector("#upload-form .upload-status");
          new MutationObserver(() => window.recordProgress(status.textContent)).observe(status, {
            childList: true,
            characterData: true,
            subtree: true,
          });
        })()`);
        await page.getByLabel("File", { exact: true }).setInputFiles({
          name: `report-${width.name}.bin`,
          mimeType: "application/octet-stream",
          buffer: Buffer.alloc(4 * 1024 * 1024, 7),
        });
        await page.getByLabel("Folder", { exact: true }).selectOption({ label: "Documents" });
        await page.getByText("Title and memo").click();
        await page.getByLabel("Title (optional)").fill(`Quarterly report (${width.name})`);
        await page.getByLabel("Memo").fill("Numbers for the meeting.");
        await page.getByRole("button", { name: "Upload", exact: true }).click();
        await page.waitForURL(/\/files\/1:\d+$/);
        fileUrl = page.url();
        assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), `Quarterly report (${width.name})`);
        assert.match((await page.locator(".item-head .tag").textContent()) ?? "", /Documents/);
        assert.match((await page.locator(".facts").textContent()) ?? "", /4\.0 MB/);
        assert.ok(progress.includes("Uploading: 0%"), `progress shown from the start: ${progress.join(", ")}`);
        assert.ok(progress.includes("Uploading: 100%"), `progress shown to the end: ${progress.join(", ")}`);
        await assertNoSidewaysScroll(page, viewport);
      });

      it("uploads a file dropped on the form", async () => {
        await page.goto(files);
        const zone = page.locator("#upload-form [data-drop-zone]");
        // What a drag from the desktop carries: a DataTransfer holding the file.
        const dataTransfer = await page.evaluateHandle(`(() => {
          const transfer = new DataTransfer();
          transfer.items.add(new File(["dropped bytes"], "dropped-${width.name}.txt", { type: "text/plain" }));
          return transfer;
        })()`);
        await zone.dispatchEvent("dragenter", { dataTransfer });
        assert.match((await zone.getAttribute("class")) ?? "", /drag-over/, "the zone shows it takes the drop");
        await zone.dispatchEvent("drop", { dataTransfer });
        await page.waitForURL(/\/files\/1:\d+$/);
        assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), `dropped-${width.name}.txt`);
        await page.goto(files);
        assert.match((await page.locator(".rows").textContent()) ?? "", new RegExp(`dropped-${width.name}\\.txt`));
      });

      it("refuses a file over 25 MB in the browser before sending it", async () => {
        await page.goto(files);
        const requests: string[] = [];
        page.on("request", (request) => {
          if (request.method() === "POST") requests.push(request.url());
        });
        // The file is made inside the page (handing Chromium 25 MB of bytes from here is slow) and
        // chosen as the file input would choose it.
        await page.evaluate(`(() => {
          const transfer = new DataTransfer();
          transfer.items.add(new File([new Uint8Array(25 * 1024 * 1024 + 1)], "huge.bin"));
          const input = document.getElementById("upload-file");
          input.files = transfer.files;
          input.dispatchEvent(new Event("change"));
        })()`);
        assert.equal(await page.locator("#upload-form .file-error").textContent(), "huge.bin is larger than 25 MB.");
        await page.getByRole("button", { name: "Upload", exact: true }).click();
        assert.equal(await page.locator("#upload-form .file-error").textContent(), "huge.bin is larger than 25 MB.");
        assert.deepEqual(requests, [], "nothing was sent");
        assert.equal(page.url(), files);
      });

      it("shows the server's refusal beside the form and keeps what was typed", async () => {
        await page.goto(files);
        await page.getByLabel("File", { exact: true }).setInputFiles({
          name: "titled.txt",
          mimeType: "text/plain",
          buffer: Buffer.from("x"),
        });
        await page.getByText("Title and memo").click();
        await page.getByLabel("Title (optional)").fill("t".repeat(201));
        await page.getByRole("button", { name: "Upload", exact: true }).click();
        const message = page.locator("#upload-form .file-error");
        await message.filter({ hasText: "The file title is longer than 200 characters." }).waitFor();
        assert.equal(page.url(), files, "still on the list page");
        assert.equal(await page.getByLabel("Title (optional)").inputValue(), "t".repeat(201));
        assert.equal(await page.getByRole("button", { name: "Upload", exact: true }).isEnabled(), true);
      });

      it("asks whether a file named like one in the folder is its new version, keeping the chosen file", async () => {
        await page.goto(files);
        await page.getByLabel("File", { exact: true }).setInputFiles({
          name: `dropped-${width.name}.txt`,
          mimeType: "text/plain",
          buffer: Buffer.from("dropped again"),
        });
        await page.getByRole("button", { name: "Upload", exact: true }).click();
        const asVersion = page.getByLabel("a new version of that file");
        await asVersion.waitFor();
        assert.equal(await asVersion.isChecked(), true, "a new version is the first answer");
        assert.match((await page.locator("#upload-form .file-error").textContent()) ?? "", /already in this folder/);
        await assertNoSidewaysScroll(page, viewport);
        await page.getByRole("button", { name: "Upload", exact: true }).click();
        await page.waitForURL(/\/files\/1:\d+$/);
        assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), `dropped-${width.name}.txt`);
        await page.locator(".history li").first().filter({ hasText: "Version 2" }).waitFor();
      });

      it("uploads a new version with a change note; the history shows it", async () => {
        await page.goto(fileUrl);
        await page.getByLabel("New version", { exact: true }).setInputFiles({
          name: `report-${width.name}-v2.txt`,
          mimeType: "text/plain",
          buffer: Buffer.from("second version"),
        });
        await page.getByLabel("Change note (optional)").fill("Corrected totals");
        await page.getByRole("button", { name: "Upload version" }).click();
        const newest = page.locator(".history li").first();
        await newest.filter({ hasText: "Version 2" }).waitFor();
        assert.match(
          (await newest.textContent()) ?? "",
          new RegExp(`report-${width.name}-v2\\.txt[\\s\\S]*Corrected totals`),
        );
        assert.equal(await page.locator(".history li").count(), 2);
        await assertNoSidewaysScroll(page, viewport);
      });

      it("moves the file to another folder", async () => {
        await page.goto(fileUrl);
        await page.getByLabel("Folder", { exact: true }).selectOption({ label: "Archive" });
        await page.getByRole("button", { name: "Move", exact: true }).click();
        await page.locator(".item-head .tag", { hasText: "Archive" }).waitFor();
        await page.locator(".item-head .tag").click();
        assert.match(
          (await page.locator(".rows").textContent()) ?? "",
          new RegExp(`Quarterly report \\(${width.name}\\)`),
        );
      });

      it("moves the file to the trash, restores it, trashes it again and deletes it for good", async () => {
        await page.goto(fileUrl);
        await page.getByRole("button", { name: "Move to trash" }).click();
        await page.getByText("This file is in the trash.").waitFor();
        await page.goto(`${files}?folder=TRASH`);
        await page
          .locator(".row", { hasText: `Quarterly report (${width.name})` })
          .getByRole("button", { name: /^Restore/ })
          .click();
        await page.waitForURL(fileUrl);
        await page.getByRole("button", { name: "Move to trash" }).waitFor();
        assert.equal(await page.getByText("This file is in the trash.").count(), 0);
        await page.getByRole("button", { name: "Move to trash" }).click();
        await page.getByRole("button", { name: "Delete for good" }).waitFor();
        await assertNoSidewaysScroll(page, viewport);
        page.once("dialog", (dialog) => {
          assert.match(dialog.message(), /Delete this file with all its versions and comments\?/);
          void dialog.accept();
        });
        await page.getByRole("button", { name: "Delete for good" }).click();
        await page.waitForURL(/\/files\?folder=TRASH$/);
        assert.equal(await page.getByText(`Quarterly report (${width.name})`).count(), 0);
        const gone = await page.goto(fileUrl);
        assert.equal(gone?.status(), 404);
      });
    });
  }

  it("uploads with the plain form when JavaScript is off", async () => {
    const context = await browser.newContext({ locale: "en-US", javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await signIn(page, `${server.url}/`, "bob@example.com", "bob-pass");
      await page.goto(`${server.url}/g/1:1/files`);
      await page.getByLabel("File", { exact: true }).setInputFiles({
        name: "no-script.txt",
        mimeType: "text/plain",
        buffer: Buffer.from("plain form"),
      });
      await page.getByRole("button", { name: "Upload", exact: true }).click();
      await page.waitForURL(/\/files\/1:\d+$/);
      const first = page.url();
      assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), "no-script.txt");
      // The same name again: the page asks, and the file is chosen again with the answer.
      await page.goto(`${server.url}/g/1:1/files`);
      const again = { name: "no-script.txt", mimeType: "text/plain", buffer: Buffer.from("plain form again") };
      await page.getByLabel("File", { exact: true }).setInputFiles(again);
      await page.getByRole("button", { name: "Upload", exact: true }).click();
      await page.getByLabel("a separate file with the same name").check();
      await page.getByLabel("File", { exact: true }).setInputFiles(again);
      await page.getByRole("button", { name: "Upload", exact: true }).click();
      await page.waitForURL(/\/files\/1:\d+$/);
      assert.notEqual(page.url(), first, "a second file");
    } finally {
      await context.close();
    }
  });
});
