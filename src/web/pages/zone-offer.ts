// The offer of the browser's time zone: a sign-in from a browser whose zone differs from the
// account's leaves it in a cookie, every page then shows a notice with two buttons, and
// `/account/zone-offer` switches the account's zone to it (or keeps the account's) and drops it.
import type { FastifyInstance } from "fastify";
import { setTimeZone } from "../../services/account/time-zone.js";
import { type WebContext, registerPage } from "../page.js";
import { ZONE_OFFER_COOKIE } from "../session.js";
import { safeNext } from "./auth.js";

/** `POST /account/zone-offer`: `decision=switch` sets the offered `timeZone`; anything else keeps the account's. */
export function registerZoneOffer(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/account/zone-offer", {
    async POST(page) {
      if (page.form.get("decision") === "switch") await setTimeZone(web, page.actor, page.form.get("timeZone") ?? "");
      page.reply.clearCookie(ZONE_OFFER_COOKIE, { path: "/" });
      return page.redirect(safeNext(page.form.get("next") ?? undefined));
    },
  });
}
