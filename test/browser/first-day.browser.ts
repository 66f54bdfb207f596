// A site's first day in Chromium, on each engine, from the setup link a new server prints: the
// administrator is made on the setup page, changes the sign-up policy, creates an account for a
// colleague (the link to set a password is shown, as no mail relay is configured), the colleague
// sets a password and registers a passkey (Chromium's virtual authenticator), the administrator
// turns on an authenticator app (codes computed by the test) and requires two-factor for everyone,
// the colleague signs in with the passkey, the administrator disables the account and the
// colleague's open session ends with it; the audit log shows each step with its actor and address.
// The server's public URL is http://localhost:PORT, a secure context and a valid passkey RP ID.
// Run by `npm run test:browser`.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type TestSchema, createTestSchema, describeEachBackend } from "../support/backends.js";
import { type ServerProcess, startServerProcess } from "../support/cli.js";
import { freePort } from "../support/free-port.js";
import { totpCode } from "../support/totp.js";
import { addVirtualAuthenticator, launchChromium } from "./chromium.js";
import { DESKTOP, contextAt } from "./widths.js";

const SETUP_LINE = /^ {2}setup: (http:\/\/\S+\/setup\/[A-Za-z0-9_-]{32})$/m;
const ADMIN = { name: "Ada Admin", email: "ada@example.com", password: "ada's first password" };
const COLLEAGUE = { name: "Uma User", email: "uma@example.com", password: "uma's own password" };
const label = (person: { name: string; email: string }) => `${person.name} <${person.email}>`;

describeEachBackend("a site's first day in Chromium", (backend) => {
  let dataDir: string;
  let schema: TestSchema | undefined;
  let server: ServerProcess;
  let browser: Browser;
  let admin: Page;
  let colleague: Page;
  let colleagueContext: BrowserContext;
  let base = "";
  const url = (path: string) => `${base}${path}`;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "kairan-first-day-"));
    const database = backend === "postgres" ? ["--database", (schema = await createTestSchema()).url] : [];
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
      ...database,
    ]);
    browser = await launchChromium();
    admin = await (await contextAt(browser, DESKTOP, { locale: "en-US" })).newPage();
    colleagueContext = await contextAt(browser, DESKTOP, { locale: "en-US" });
    colleague = await colleagueContext.newPage();
    await addVirtualAuthenticator(colleagueContext, colleague);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await schema?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const hasSession = async () => (await colleagueContext.cookies()).some((cookie) => cookie.name === "kairan_session");

  async function saveSettings(change: (page: Page) => Promise<void>): Promise<void> {
    await admin.goto(url("/admin/settings"));
    await change(admin);
    await admin.getByRole("button", { name: "Save the settings" }).click();
    await admin.getByText("The settings are saved and apply now.").waitFor();
  }

  async function colleagueSignsIn(): Promise<void> {
    await colleague.goto(url("/signin"));
    await colleague.locator("#email").fill(COLLEAGUE.email);
    await colleague.locator("#password").fill(COLLEAGUE.password);
    await colleague.getByRole("button", { name: "Sign in" }).click();
  }

  it("makes the administrator on the setup page the server printed", async () => {
    const link = SETUP_LINE.exec(server.stdout())?.[1];
    assert.ok(link, `a setup line in:\n${server.stdout()}`);
    await admin.goto(link);
    await admin.locator("#setup-name").fill(ADMIN.name);
    await admin.locator("#setup-email").fill(ADMIN.email);
    await admin.locator("#setup-password").fill(ADMIN.password);
    await admin.locator("#setup-repeat").fill(ADMIN.password);
    await admin.getByRole("button", { name: "Create the administrator" }).click();
    await admin.waitForURL((page) => !page.pathname.startsWith("/setup"));
    await admin.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Administration" }).click();
    await admin.waitForURL(url("/admin"));
  });

  it("opens sign-up to the company's domain", async () => {
    await saveSettings(async (page) => {
      await page.locator("#signup-domains").check();
      await page.locator("#setting-domains").fill("example.com");
    });
    assert.equal(await admin.locator("#signup-domains").isChecked(), true);
  });

  it("creates the colleague's account, who sets a password from the link shown", async () => {
    await admin.goto(url("/admin/users/new"));
    await admin.locator("#admin-user-name").fill(COLLEAGUE.name);
    await admin.locator("#admin-user-email").fill(COLLEAGUE.email);
    await admin.getByRole("button", { name: "Create the account" }).click();
    const link = await admin.locator("#admin-reset-link").inputValue();
    assert.match(link, /\/password\/reset\/[A-Za-z0-9_-]+$/);

    await colleague.goto(link);
    await colleague.locator("#reset-password").fill(COLLEAGUE.password);
    await colleague.locator("#reset-repeat").fill(COLLEAGUE.password);
    await colleague.getByRole("button", { name: "Set the password" }).click();
    await colleague.waitForURL((page) => !page.pathname.startsWith("/password"));
    assert.ok(
      (await colleagueContext.cookies()).some((cookie) => cookie.name === "kairan_session"),
      "signed in",
    );
  });

  /** Sets up an authenticator app on `page`'s account; returns the secret the app would keep. */
  async function turnOnTwoFactor(page: Page): Promise<string> {
    await page.goto(url("/account/two-factor"));
    await page.getByRole("button", { name: "Set up an authenticator app" }).click();
    const shown = ((await page.locator("#totp-secret").textContent()) ?? "").replace(/\s/g, "");
    assert.match(shown, /^[A-Z2-7]{32}$/);
    await page.getByLabel("Six-digit code from the app").fill(totpCode(shown, Date.now()));
    await page.getByRole("button", { name: "Confirm and turn on" }).click();
    await page.getByRole("heading", { name: "Your recovery codes" }).waitFor();
    await page.getByRole("link", { name: "I have saved them" }).click();
    await page.waitForURL(url("/account/two-factor"));
    return shown;
  }

  it("registers a passkey", async () => {
    await colleague.goto(url("/account/two-factor"));
    await colleague.getByLabel("Name of the new passkey (the device it is on, for example)").fill("Laptop");
    await colleague.getByRole("button", { name: "Add a passkey" }).click();
    await colleague.waitForURL(url("/account/two-factor?saved=passkeys#passkeys"));
    assert.match((await colleague.locator("#passkey-list").textContent()) ?? "", /Laptop/);
  });

  it("requires two-factor for everyone (an app of their own first); the colleague signs in with the passkey", async () => {
    await turnOnTwoFactor(admin);
    await saveSettings((page) =>
      page
        .locator("#setting-two-factor")
        .selectOption("everyone")
        .then(() => undefined),
    );
    await colleague.getByRole("button", { name: "Sign out" }).click();
    await colleague.waitForURL(/\/signin\?signed-out=1$/);
    await colleagueSignsIn();
    await colleague.waitForURL(/\/signin\/second-factor/);
    assert.equal(await hasSession(), false, "the password alone opens no session");
    await colleague.getByRole("button", { name: "Use a passkey" }).click();
    await colleague.waitForURL(url("/"));
    assert.equal(await hasSession(), true);
  });

  it("disables the colleague's account: their open session ends at the next page", async () => {
    await admin.goto(url("/admin/users"));
    await admin.getByRole("link", { name: COLLEAGUE.name }).click();
    await admin.getByRole("button", { name: "Disable" }).click();
    await admin.getByRole("button", { name: "Enable" }).waitFor();
    await colleague.goto(url("/"));
    await colleague.waitForURL(/\/signin/);
  });

  it("reads each step in the audit log with its actor and address", async () => {
    await admin.goto(url("/admin/audit"));
    const texts = (await admin.locator("#audit-rows tbody tr").allTextContents()).map((text) =>
      text.replace(/\s+/g, " ").trim(),
    );
    const steps = [
      { action: "settings.change", actor: ADMIN, count: 2 },
      { action: "user.create", actor: ADMIN, count: 1 },
      { action: "password.reset", actor: COLLEAGUE, count: 1 },
      { action: "passkey.add", actor: COLLEAGUE, count: 1 },
      { action: "two-factor.enable", actor: ADMIN, count: 1 },
      { action: "sign-in", actor: COLLEAGUE, count: 1 },
      { action: "user.disable", actor: ADMIN, count: 1 },
    ];
    for (const step of steps) {
      const rows = texts.filter((text) => text.includes(` ${step.action} `) && text.includes(label(step.actor)));
      assert.ok(
        rows.length >= step.count,
        `the log shows ${step.action} by ${step.actor.name} (${step.count}):\n${texts.join("\n")}`,
      );
      for (const row of rows) assert.match(row, /127\.0\.0\.1|::1/, `${step.action} names the address`);
    }
    const settings = texts.filter((text) => text.includes(" settings.change ")).join("\n");
    assert.match(settings, /"signupPolicy":\{"before":"invitation","after":"domains"\}/);
    assert.match(settings, /"twoFactorPolicy":\{"before":"optional","after":"everyone"\}/);
    const disabled = texts.find((text) => text.includes(" user.disable "));
    assert.ok(disabled?.includes(label(COLLEAGUE)), "the disabled account is named as the target");
  });
});
