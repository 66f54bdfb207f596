// Debian's Chromium driven by playwright-core: the browser tests and `npm run screenshots` use
// the browser the machine has (apt-get install chromium), never one downloaded at run time.
import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, type Locator, type Page, chromium } from "playwright-core";

/** Where Debian installs Chromium; KAIRAN_CHROMIUM overrides it. */
export const CHROMIUM_PATH = process.env.KAIRAN_CHROMIUM ?? "/usr/bin/chromium";

/**
 * Starts headless Chromium.
 * @throws when Chromium is missing: a browser test must fail, never pass without a browser
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}. Install Debian's package (apt-get install -y chromium) ` +
        "or set KAIRAN_CHROMIUM to its path; the browser tests never download a browser.",
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/**
 * Gives `page` Chromium's virtual authenticator (DevTools' WebAuthn domain): a platform
 * authenticator that keeps discoverable credentials and verifies its user, as a phone or a laptop
 * with a fingerprint reader does, so passkeys can be made and used without a person.
 */
export async function addVirtualAuthenticator(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
}

/**
 * The width of a picture once the browser has it, 0 if it failed to load. A picture's element is
 * on the page before its bytes are (and `loading="lazy"` waits for it to be seen), so reading
 * `naturalWidth` at once races the download.
 */
export async function loadedImageWidth(image: Locator): Promise<number> {
  await image.scrollIntoViewIfNeeded();
  return image.evaluate((element) => {
    const picture = element as unknown as { naturalWidth: number; decode(): Promise<void> };
    return picture.decode().then(
      () => picture.naturalWidth,
      () => 0,
    );
  });
}
