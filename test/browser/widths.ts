// The two widths every browser flow is tried at: a desktop window and a 390 px phone (the width
// of today's common phones). A flow that works on one and breaks on the other is a bug people meet.
import { it } from "node:test";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { LONG_RUN } from "../support/long.js";

/** One screen a flow runs on. */
export interface Width {
  readonly name: "desktop" | "phone";
  /** The context options of this screen: viewport, and touch on the phone. */
  readonly options: BrowserContextOptions;
}

/** A desktop window. */
export const DESKTOP: Width = { name: "desktop", options: { viewport: { width: 1280, height: 800 } } };

/** A phone 390 px wide, with touch. */
export const PHONE: Width = {
  name: "phone",
  options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
};

/** The desktop window and the 390 px phone, in that order. */
export const WIDTHS: readonly Width[] = [DESKTOP, PHONE];

/** Where the pages laid out for this width live: "/m" for the phone, "" for the desktop. */
export function pagesFor(width: Width): "" | "/m" {
  return width.name === "phone" ? "/m" : "";
}

/** A fresh context at `width`, English and UTC unless `extra` says otherwise. */
export function contextAt(browser: Browser, width: Width, extra: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({ locale: "en-US", timezoneId: "UTC", ...width.options, ...extra });
}

/**
 * The screens of a suite written for both: both under `npm run test:long`, `everyday` alone in
 * `npm run test:browser` (and CI), whose time is the project's to keep short. Each file chooses its
 * everyday screen so that the run as a whole still tries every flow's pages on a phone somewhere.
 */
export function screensOf<T>(both: readonly T[], everyday: T): readonly T[] {
  return LONG_RUN ? both : [everyday];
}

/** How many flows `itAtWidths` declared in this file: the next one's everyday width. */
let declared = 0;

/**
 * Declares the test `name` per width ("name (desktop)", "name (phone, 390 px)"), so a failure says
 * at which width it happened; `body` gets the width to open its contexts at. Under
 * `npm run test:long` each flow runs at both widths; in the everyday run each runs once, the
 * widths alternating from one declared flow to the next (desktop first), so a file still tries
 * both screens.
 */
export function itAtWidths(name: string, body: (width: Width) => Promise<void>): void {
  const everyday = WIDTHS[declared++ % WIDTHS.length] ?? DESKTOP;
  for (const width of screensOf(WIDTHS, everyday)) {
    const label = width.name === "phone" ? `phone, ${width.options.viewport?.width ?? 390} px` : width.name;
    it(`${name} (${label})`, () => body(width));
  }
}

/** How far the page reaches sideways beyond the window (0: the page never scrolls sideways). */
export function overflow(page: Page): Promise<number> {
  return page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
}

/**
 * Opens the header's menu where the page folds it behind a "Menu" button (below 600 px), so its
 * links, search box and sign-out button can be used; does nothing where the header shows them.
 */
export async function openMenu(page: Page): Promise<void> {
  const button = page.locator(".site-header .menu-toggle");
  if (!(await button.isVisible())) return;
  if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
}
