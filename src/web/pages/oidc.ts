// Single sign-on through the site's OpenID provider: `/signin/oidc` starts (the flow's secrets
// kept server-side under a cookie of this browser), `/signin/oidc/callback` finishes. The redirect
// URI is always the desktop path under the public URL (what the operator registers at the
// provider); a phone's sign-in keeps its `/m` in where it goes next.
import type { FastifyInstance } from "fastify";
import { OIDC_FLOW_MS, type OidcRefusal } from "../../domain/oidc.js";
import { queryValue } from "../../http-kit/query.js";
import { finishOidcSignIn, startOidcSignIn } from "../../services/oidc/oidc-sign-in.js";
import { OidcUnavailableError } from "../../services/oidc/provider.js";
import { type PublicPageRequest, type WebContext, pageNotFound, registerPublicPage } from "../page.js";
import {
  SECOND_STEP_COOKIE,
  SIGNIN_COOKIE,
  cookieOptions,
  deviceOf,
  setDeviceCookie,
  setSessionCookie,
  signedInOf,
  takeBrowserZone,
} from "../session.js";
import { browserTimeZone } from "../../domain/user.js";
import { SECOND_STEP_MS } from "../../domain/two-factor.js";
import { safeNext } from "./auth.js";

/** The cookie that binds a sign-in under way to the browser that started it. */
export const OIDC_COOKIE = "kairan_oidc";

/** The browser's time zone (the sign-in link's `?timeZone=`), kept while the provider is asked. */
export const OIDC_ZONE_COOKIE = "kairan_oidc_zone";

/** The path the provider sends the browser back to. */
export const OIDC_CALLBACK_PATH = "/signin/oidc/callback";

/** The redirect URI to register at the provider. */
export function oidcRedirectUri(web: WebContext): string {
  return `${web.baseUrl().replace(/\/+$/, "")}${OIDC_CALLBACK_PATH}`;
}

/** `/signin/oidc` and `/signin/oidc/callback`. */
export function registerOidcPages(app: FastifyInstance, web: WebContext): void {
  registerPublicPage(app, web, "/signin/oidc", {
    async GET(page) {
      const next = safeNext(queryValue(page.query, "next"));
      if (await signedInOf(web, page.request)) return page.redirect(next);
      try {
        const started = await startOidcSignIn(web, { redirectUri: oidcRedirectUri(web), next: page.chrome.u(next) });
        if (started === undefined) throw pageNotFound();
        page.reply.setCookie(OIDC_COOKIE, started.browser, cookieOptions(web, OIDC_FLOW_MS));
        const zone = browserTimeZone(queryValue(page.query, "timeZone"));
        if (zone !== undefined) page.reply.setCookie(OIDC_ZONE_COOKIE, zone, cookieOptions(web, OIDC_FLOW_MS));
        return page.reply.header("cache-control", "no-store").redirect(started.authorizationUrl, 303);
      } catch (error) {
        if (!(error instanceof OidcUnavailableError)) throw error;
        return unavailable(page, error);
      }
    },
  });
  registerPublicPage(app, web, OIDC_CALLBACK_PATH, {
    async GET(page) {
      const query = new URL(page.request.url, "http://callback.invalid").search;
      const currentUrl = new URL(`${oidcRedirectUri(web)}${query}`);
      const browser = page.request.cookies[OIDC_COOKIE];
      page.reply.clearCookie(OIDC_COOKIE, { path: "/" });
      const zone = page.request.cookies[OIDC_ZONE_COOKIE];
      if (zone !== undefined) page.reply.clearCookie(OIDC_ZONE_COOKIE, { path: "/" });
      try {
        const outcome = await finishOidcSignIn(web, {
          browser,
          currentUrl,
          address: web.clientAddress(page.request),
          device: deviceOf(page.request),
        });
        if (outcome.kind === "off") throw pageNotFound();
        if (outcome.kind === "refused") return refused(page, outcome.reason);
        setDeviceCookie(web, page.reply, outcome.device);
        page.reply.clearCookie(SIGNIN_COOKIE, { path: "/" });
        const next = safeNext(outcome.next);
        if (outcome.kind === "second-step") {
          page.reply.setCookie(SECOND_STEP_COOKIE, outcome.pending, cookieOptions(web, SECOND_STEP_MS));
          const mobile = next === "/m" || next.startsWith("/m/");
          const after = mobile ? next.slice(2) || "/" : next;
          const to = `${mobile ? "/m" : ""}/signin/second-factor?${new URLSearchParams({ next: after }).toString()}`;
          return page.reply.header("cache-control", "no-store").redirect(to, 303);
        }
        setSessionCookie(web, page.reply, outcome.token);
        // A first sign-in (or sign-up) by single sign-on takes the browser's zone as the password's does.
        await takeBrowserZone(web, page.reply, outcome.userId, zone);
        return page.reply.header("cache-control", "no-store").redirect(next, 303);
      } catch (error) {
        if (!(error instanceof OidcUnavailableError)) throw error;
        return unavailable(page, error);
      }
    },
  });
}

/** The provider does not answer: say so, and that the password still works. */
function unavailable(page: PublicPageRequest, error: OidcUnavailableError) {
  page.request.log.warn({ reason: error.reason }, "single sign-on unavailable");
  page.reply.header("retry-after", String(error.retryAfterSeconds));
  return page.render(
    "oidc-problem",
    { title: page.chrome.t("oidc.problemTitle"), problem: page.chrome.t("oidc.unavailable"), again: false },
    503,
  );
}

function refused(page: PublicPageRequest, reason: OidcRefusal) {
  return page.render(
    "oidc-problem",
    {
      title: page.chrome.t("oidc.problemTitle"),
      problem: page.chrome.t(`oidc.refused.${reason}`),
      again: reason === "expired" || reason === "denied" || reason === "invalid",
    },
    reason === "expired" || reason === "invalid" ? 400 : 403,
  );
}
