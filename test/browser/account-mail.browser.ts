// Mail about accounts in Chromium, end to end, against a real `kairan serve` whose mail goes to a
// real SMTP peer (the sink): "Forgot your password?" from the sign-in page to a new password set
// through the link in the received mail; an invitation by e-mail from the members page, its link
// opened from the received mail, an account made (sign-up closed) and the group reached. Both at
// desktop width and on the 390 px phone pages. Run by `npm run test:browser` (Chromium needed).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type ServerProcess, runKairan, startServerProcess } from "../support/cli.js";
import { type ReceivedMail, type SmtpSink, startSmtpSink } from "../support/smtp-sink.js";
import { launchChromium } from "./chromium.js";
import { type Width, contextAt, itAtWidths, overflow, pagesFor } from "./widths.js";

const SEED = fileURLToPath(new URL("./seed.json", import.meta.url));

describe("mail about accounts in Chromium", () => {
  let browser: Browser;
  let sink: SmtpSink;
  let dataDir: string;
  let server: ServerProcess;
  const contexts: BrowserContext[] = [];

  before(async () => {
    browser = await launchChromium();
    sink = await startSmtpSink();
    dataDir = mkdtempSync(join(tmpdir(), "kairan-account-mail-browser-"));
    const seeded = runKairan(["seed", SEED, "--data", dataDir, "--log-level", "silent"]);
    assert.equal(seeded.status, 0, seeded.stderr);
    const flags = ["--port", "0", "--data", dataDir, "--no-demo", "--log-level", "warn", "--locale", "en"];
    server = await startServerProcess([...flags, "--smtp-url", sink.url]);
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.stop();
    await sink?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function pageAt(width: Width): Promise<Page> {
    const context = await contextAt(browser, width);
    contexts.push(context);
    const page = await context.newPage();
    page.on("dialog", (dialog) => void dialog.accept());
    return page;
  }

  /** The link to this server in a received message's text part, as a person would click it. */
  function linkIn(mail: ReceivedMail): string {
    const match = new RegExp(`${server.url.replace(/\./g, "\\.")}/\\S+`).exec(mail.parsed.text ?? "");
    assert.ok(match, `a link in:\n${mail.parsed.text}`);
    return match[0];
  }

  /** The same link on the pages of this width (the phone pages live under /m). */
  const onWidth = (link: string, width: Width) => link.replace(server.url, `${server.url}${pagesFor(width)}`);

  let resets = 0;
  itAtWidths("resets a forgotten password through the link in the mail", async (width) => {
    const base = `${server.url}${pagesFor(width)}`;
    const password = `bob-new-pass-${++resets}`;
    const before = sink.received.length;
    const page = await pageAt(width);
    await page.goto(`${base}/signin`);
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByLabel("E-mail address").fill("bob@example.com");
    await page.getByRole("button", { name: "Send the link" }).click();
    await page.getByText("If an account has this address").waitFor();
    assert.ok((await overflow(page)) <= 0, "no sideways scrolling");
    const mail = await sink.waitFor((m) => sink.received.indexOf(m) >= before && m.to.includes("bob@example.com"));
    assert.equal(mail.parsed.subject, "Reset your Kairan password");
    await page.goto(onWidth(linkIn(mail), width));
    await page.getByLabel("New password", { exact: true }).fill(password);
    await page.getByLabel("New password again").fill(password);
    await page.getByRole("button", { name: "Set the password" }).click();
    await page.waitForURL(/\/account\?saved=password/);
    await page.getByText("Your password has been changed").waitFor();
    // The new password signs in from another browser; the link is used up.
    const other = await pageAt(width);
    await other.goto(`${base}/signin`);
    await other.getByLabel("E-mail address").fill("bob@example.com");
    await other.getByLabel("Password").fill(password);
    await other.getByRole("button", { name: "Sign in" }).click();
    // Attached, not visible: on a phone the header folds the name behind its Menu button.
    await other.getByText("Signed in as Bob Baba").first().waitFor({ state: "attached" });
    await other.goto(onWidth(linkIn(mail), width));
    await other.getByText("This link has been used already").waitFor();
  });

  let invited = 0;
  itAtWidths(
    "invites by e-mail; the invitee opens the mail's link, makes an account and lands in the group",
    async (width) => {
      const base = `${server.url}${pagesFor(width)}`;
      const address = `newcomer${++invited}@example.com`;
      const alice = await pageAt(width);
      await alice.goto(`${base}/signin`);
      await alice.getByLabel("E-mail address").fill("alice@example.com");
      await alice.getByLabel("Password").fill("alice-pass");
      await alice.getByRole("button", { name: "Sign in" }).click();
      // Attached: the phone header folds the name behind its Menu button.
      await alice.getByText("Signed in as Alice Aoki").first().waitFor({ state: "attached" });
      await alice.goto(`${base}/g/1:1/members`);
      await alice.getByLabel("E-mail address").fill(address);
      await alice.getByRole("button", { name: "Invite", exact: true }).click();
      await alice.getByText(`${address} is invited: a message with the link to join is on its way`).waitFor();
      const mail = await sink.waitFor((m) => m.to.includes(address));
      assert.equal(mail.parsed.subject, 'Invitation to join "Browser Team" on Kairan');
      assert.match(mail.parsed.text ?? "", /^Alice Aoki invites you to join the group "Browser Team" on Kairan\./);
      await alice.goto(`${base}/g/1:1/members?status=INVITE`);
      await alice
        .getByText(/Invitation valid until .* · sent /)
        .first()
        .waitFor();
      const newcomer = await pageAt(width);
      await newcomer.goto(onWidth(linkIn(mail), width));
      await newcomer.getByText(`${address} is invited to join Browser Team`).waitFor();
      await newcomer.getByLabel("Your name").fill(`Newcomer ${invited}`);
      await newcomer.getByLabel("Password").fill("newcomer-pass-1");
      await newcomer.getByRole("button", { name: "Create account and join" }).click();
      await newcomer.waitForURL(/\/g\/1:1\/board$/);
      assert.ok((await overflow(newcomer)) <= 0, "no sideways scrolling");
      await newcomer.goto(`${base}/g/1:1/members`);
      // In the list itself: the header names them too, folded behind the Menu button on a phone.
      await newcomer.locator("main").getByText(`Newcomer ${invited}`).first().waitFor();
    },
  );
});
