// Single sign-on in Chromium against a real OpenID provider (oidc-provider 8) started in this test
// on 127.0.0.1, PKCE required: the demo's administrator sets it up in /admin/settings, then a new
// person gets an account, Bob's account is linked by his verified address, an address of another
// domain is refused, and with the provider stopped the page says single sign-on is unavailable
// while the password form still signs in. The pages pass axe-core's serious and critical checks.
// Run by `npm run test:browser` (after `npm run build`).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { type ServerProcess, startServerProcess } from "../support/cli.js";
import { type TestProvider, startTestProvider } from "../support/oidc-provider.js";
import { seriousViolations } from "./axe.js";
import { launchChromium } from "./chromium.js";
import { DESKTOP, contextAt } from "./widths.js";

/** The demo workspace's administrator. */
const ADMIN = { email: "alice@example.com", password: "kairan-demo" };

describe("single sign-on (OpenID Connect) in Chromium", () => {
  let dataDir: string;
  let server: ServerProcess;
  let provider: TestProvider;
  let browser: Browser;

  before(async () => {
    browser = await launchChromium();
    dataDir = mkdtempSync(join(tmpdir(), "kairan-oidc-browser-"));
    server = await startServerProcess(["--port", "0", "--data", dataDir, "--log-level", "warn"]);
    provider = await startTestProvider(`${server.url}/signin/oidc/callback`);
    provider.accounts.set("newcomer", { email: "nora@example.com", email_verified: true, name: "Nora Newcomer" });
    provider.accounts.set("bob", { email: "bob@example.com", email_verified: true, name: "Bob at the provider" });
    provider.accounts.set("outsider", { email: "olga@elsewhere.example", email_verified: true, name: "Olga" });
  });
  after(async () => {
    await browser?.close();
    await provider?.stop();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** A fresh browser (no cookies of Kairan or of the provider); bypassCSP: axe-core is injected. */
  const freshPage = async (timezoneId = "UTC"): Promise<Page> =>
    (await contextAt(browser, DESKTOP, { locale: "en-US", bypassCSP: true, timezoneId })).newPage();

  /** From Kairan's sign-in page through the provider's login form, as `login`. */
  async function ssoSignIn(login: string, timezoneId?: string): Promise<Page> {
    const page = await freshPage(timezoneId);
    await page.goto(`${server.url}/signin`);
    await page.getByRole("link", { name: "Sign in with Corp Login" }).click();
    await page.waitForURL((url) => url.href.startsWith(provider.issuer));
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill("any");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.waitForURL((url) => url.href.startsWith(server.url));
    return page;
  }

  it("is set up by the administrator in the settings, and the sign-in page offers its button", async () => {
    const page = await freshPage();
    await page.goto(`${server.url}/signin`);
    await page.getByLabel("E-mail address").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => !url.pathname.endsWith("/signin"));
    await page.goto(`${server.url}/admin/settings`);
    assert.match(
      (await page.locator("#setting-oidc-issuer-help").textContent()) ?? "",
      new RegExp(`${server.url}/signin/oidc/callback`),
      "the page shows the redirect URI to register",
    );
    await page.getByLabel("Offer single sign-on on the sign-in page").check();
    await page.getByLabel("Provider name on the button").fill("Corp Login");
    await page.getByLabel("Issuer URL").fill(provider.issuer);
    await page.getByLabel("Client ID").fill(provider.clientId);
    await page.getByLabel("Client secret").fill(provider.clientSecret);
    await page.getByLabel("Create an account for a person without one").check();
    await page.getByLabel("Domains allowed to sign in this way").fill("example.com");
    await page.getByRole("button", { name: "Save the settings" }).click();
    await page.getByText("The settings are saved and apply now.").waitFor();
    assert.equal(await page.getByLabel("Client secret").inputValue(), "", "the secret is never shown back");
    assert.match((await page.locator("#setting-oidc-secret-help").textContent()) ?? "", /A secret is saved/);
    assert.deepEqual(await seriousViolations(page), [], "settings page: axe-core finds nothing serious");

    const signIn = await freshPage();
    await signIn.goto(`${server.url}/signin`);
    await signIn.getByRole("link", { name: "Sign in with Corp Login" }).waitFor();
    assert.deepEqual(await seriousViolations(signIn), [], "sign-in page: axe-core finds nothing serious");
  });

  it("makes an account for a new person from the provider's claims", async () => {
    const page = await ssoSignIn("newcomer", "Asia/Tokyo");
    assert.ok(!new URL(page.url()).pathname.startsWith("/signin"), `signed in: ${page.url()}`);
    await page.goto(`${server.url}/account`);
    assert.equal(await page.getByRole("textbox", { name: "Name", exact: true }).inputValue(), "Nora Newcomer");
    assert.equal(await page.locator("#account-time-zone").inputValue(), "Asia/Tokyo", "the browser's zone, taken");
  });

  it("links Bob's existing account by his verified address", async () => {
    const page = await ssoSignIn("bob");
    assert.ok(!new URL(page.url()).pathname.startsWith("/signin"), `signed in: ${page.url()}`);
    await page.goto(`${server.url}/account`);
    assert.match(await page.content(), /bob@example\.com/);
    assert.equal(
      await page.getByRole("textbox", { name: "Name", exact: true }).inputValue(),
      "Bob Baba",
      "his own name kept",
    );
  });

  it("refuses an address of another domain with a clear page, and makes nothing", async () => {
    const page = await ssoSignIn("outsider");
    await page.getByText("Single sign-on is not open to addresses of this domain.").waitFor();
    assert.deepEqual(await seriousViolations(page), [], "refusal page: axe-core finds nothing serious");
    await page.getByRole("link", { name: "Sign in with your password" }).click();
    await page.waitForURL(`${server.url}/signin`);
  });

  it("says single sign-on is unavailable while the provider is down, and the password still signs in", async () => {
    await provider.stop();
    const page = await freshPage();
    await page.goto(`${server.url}/signin`);
    await page.getByRole("link", { name: "Sign in with Corp Login" }).click();
    await page.getByText("Single sign-on is unavailable at the moment").waitFor();
    assert.match(await page.content(), /You can still sign in with your e-mail address and password/);
    await page.getByRole("link", { name: "Sign in with your password" }).click();
    await page.getByLabel("E-mail address").fill("bob@example.com");
    await page.getByLabel("Password").fill("kairan-demo");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => !url.pathname.endsWith("/signin"));
  });
});
