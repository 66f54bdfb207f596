// How a web page is served: language, session, CSRF check, the phone variant under `/m`, and
// rendering. Page handlers, like API handlers, read, authorize, call one service and present.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Actor } from "../domain/access.js";
import type { SiteSettings } from "../domain/site-settings.js";
import { readSiteSettings } from "../services/settings/site-settings.js";
import { ForbiddenError, NotFoundError } from "../domain/errors.js";
import { parsePair } from "../domain/item-id.js";
import type { Session } from "../domain/session.js";
import type { Context } from "../context.js";
import { formFields, refuseNonXmlCharacters, sameToken } from "../http-kit/form.js";
import type { QueryValues } from "../http-kit/query.js";
import { requestSlot } from "../http-kit/request-data.js";
import { type EndpointHandlers, registerEndpoint } from "../http-kit/route.js";
import { sendPage } from "../http-kit/send.js";
import { twoFactorStatus } from "../services/two-factor/status.js";
import { readUnreadCounts } from "../services/unread/unread.js";
import type { Assets } from "./assets.js";
import { type Chrome, buildChrome } from "./chrome.js";
import { negotiateLang } from "./i18n/i18n.js";
import { renderTemplate } from "./render.js";
import { offeredZone, signedInOf } from "./session.js";

/** What page handlers are given besides the request. */
export interface WebContext extends Context {
  readonly assets: Assets;
}

/** One page request, before or without sign-in. */
export interface PublicPageRequest {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly chrome: Chrome;
  readonly params: Readonly<Record<string, string>>;
  readonly query: QueryValues;
  /** The fields of a urlencoded form POST (empty otherwise). */
  readonly form: URLSearchParams;
  /** Renders `templates/<name>.eta` inside the layout. */
  render(template: string, data: object, status?: number): FastifyReply;
  /** 303 to a path of this site, in the same (desktop or phone) variant. */
  redirect(path: string): FastifyReply;
}

/** A page request of a signed-in person. */
export interface PageRequest extends PublicPageRequest {
  readonly actor: Actor;
  readonly session: Session;
  /** The session cookie's token (signing out ends exactly this session). */
  readonly sessionToken: string;
}

type Handler<P> = (page: P) => Promise<FastifyReply>;

/** Options of a signed-in page route. */
export interface PageOptions {
  /** The POST body is multipart: the handler checks the CSRF field while streaming. */
  readonly multipart?: boolean;
  /**
   * Open to a person who must set up two-factor sign-in and has not yet (the enrolment pages and
   * signing out); every other page sends them to the enrolment page, or refuses a form.
   */
  readonly whileEnrolling?: boolean;
  /**
   * The answer is never a page (JSON, a download, an image): the header's counts and the zone
   * offer are not read for it. A topic page's pictures each come through /download, so reading
   * the counts there would cost three queries per picture.
   */
  readonly noPage?: boolean;
}

const CHROME = requestSlot<Chrome>("chrome");

/** The chrome of a request that got that far (error pages reuse it); undefined otherwise. */
export function chromeOf(request: FastifyRequest): Chrome | undefined {
  return CHROME.get(request);
}

/**
 * The language and variant of any request, for pages shown before a session is known: the
 * site's settings (name, default language and zone) when read, else the server's options.
 */
export function anonymousChrome(web: WebContext, request: FastifyRequest, site?: SiteSettings): Chrome {
  const { mobile, path } = splitVariant(request.url);
  return buildChrome({
    lang: negotiateLang(request.headers["accept-language"], site?.locale ?? web.config.locale),
    timeZone: site?.timeZone ?? web.config.timeZone,
    siteName: site?.siteName,
    mobile,
    path,
    user: undefined,
    csrf: undefined,
    assetVersion: web.assets.version,
  });
}

/** `/m/g/1:1/board?x` -> phone variant, path `/g/1:1/board?x`. */
function splitVariant(url: string): { mobile: boolean; path: string } {
  if (url === "/m" || url.startsWith("/m/") || url.startsWith("/m?"))
    return { mobile: true, path: url.slice(2) || "/" };
  return { mobile: false, path: url };
}

/** Registers a page for signed-in people at `path` and at `/m` + `path`. */
export function registerPage(
  app: FastifyInstance,
  web: WebContext,
  path: string,
  handlers: { GET?: Handler<PageRequest>; POST?: Handler<PageRequest> },
  options: PageOptions = {},
): void {
  const wrap =
    (method: "GET" | "POST", handler: Handler<PageRequest>) => async (request: FastifyRequest, reply: FastifyReply) => {
      const site = await readSiteSettings(web);
      const base = anonymousChrome(web, request, site);
      CHROME.set(request, base);
      const signedIn = await signedInOf(web, request);
      if (!signedIn) {
        if (method === "GET")
          return reply
            .header("cache-control", "no-store")
            .redirect(`${base.base}/signin?${new URLSearchParams({ next: base.path }).toString()}`, 303);
        // 403, not 401: a cookie session has no WWW-Authenticate challenge to offer (RFC 9110 §15.5.2).
        throw new ForbiddenError("SIGNED_OUT", "Your session has ended. Sign in again.");
      }
      // What the person chose on their account page wins over the browser's language and the server's zone.
      const { lang, timeZone } = signedIn.session.preferences;
      const showsPage = method === "GET" && !options.noPage;
      const chrome = buildChrome({
        ...base,
        lang: lang ?? base.lang,
        timeZone: timeZone ?? base.timeZone,
        user: { ...signedIn.session.user, admin: signedIn.session.siteAdmin },
        csrf: signedIn.session.csrf,
        // The header's counts; a form's answer (a redirect, mostly) and what is no page do without them.
        unread: showsPage ? await readUnreadCounts(web, signedIn.actor) : undefined,
        zoneOffer: showsPage ? offeredZone(request, timeZone ?? base.timeZone) : undefined,
      });
      CHROME.set(request, chrome);
      if (!options.whileEnrolling && (await twoFactorStatus(web, signedIn.session.user.id, site)).mustEnrol) {
        if (method === "GET")
          return reply.header("cache-control", "no-store").redirect(chrome.u("/account/two-factor"), 303);
        throw new ForbiddenError(
          "TWO_FACTOR_REQUIRED",
          "This site requires two-factor sign-in for your account: set it up on your account page first.",
        );
      }
      const form = formFields(request);
      if (method === "POST" && !options.multipart) {
        requireCsrf(form.get("_csrf") ?? undefined, signedIn.session.csrf);
        refuseNonXmlCharacters(form);
      }
      return handler({
        ...pageOf(request, reply, chrome, form),
        // Where the request came from travels with the person, for the audit rows their writes leave.
        actor: { ...signedIn.actor, address: web.clientAddress(request) },
        session: signedIn.session,
        sessionToken: signedIn.token,
      });
    };
  register(app, path, {
    GET: handlers.GET && wrap("GET", handlers.GET),
    POST: handlers.POST && wrap("POST", handlers.POST),
  });
}

/** Registers a page anyone may open (sign-in) at `path` and `/m` + `path`. */
export function registerPublicPage(
  app: FastifyInstance,
  web: WebContext,
  path: string,
  handlers: { GET?: Handler<PublicPageRequest>; POST?: Handler<PublicPageRequest> },
): void {
  const wrap = (handler: Handler<PublicPageRequest>) => async (request: FastifyRequest, reply: FastifyReply) => {
    const chrome = anonymousChrome(web, request, await readSiteSettings(web));
    CHROME.set(request, chrome);
    return handler(pageOf(request, reply, chrome, formFields(request)));
  };
  register(app, path, { GET: handlers.GET && wrap(handlers.GET), POST: handlers.POST && wrap(handlers.POST) });
}

function register(app: FastifyInstance, path: string, handlers: EndpointHandlers): void {
  const defined: EndpointHandlers = Object.fromEntries(
    Object.entries(handlers).filter(([, handler]) => handler !== undefined),
  );
  for (const url of path === "/" ? ["/", "/m", "/m/"] : [path, `/m${path}`]) registerEndpoint(app, url, defined);
}

function pageOf(
  request: FastifyRequest,
  reply: FastifyReply,
  chrome: Chrome,
  form: URLSearchParams,
): PublicPageRequest {
  return {
    request,
    reply,
    chrome,
    params: request.params as Record<string, string>,
    query: request.query as QueryValues,
    form,
    render: (template, data, status = 200) => sendPage(reply, status, renderPage(chrome, template, data)),
    redirect: (path) => reply.header("cache-control", "no-store").redirect(chrome.u(path), 303),
  };
}

/** A template inside the layout, with the chrome as `it` for both. */
export function renderPage(chrome: Chrome, template: string, data: object): string {
  const it = { ...chrome, ...data };
  return renderTemplate("layout", { ...it, body: renderTemplate(template, it) });
}

/**
 * The session's token in a form, compared in constant time.
 * @throws ForbiddenError CSRF_TOKEN_INVALID
 */
export function requireCsrf(sent: string | undefined, expected: string): void {
  if (sent === undefined || !sameToken(sent, expected)) {
    throw new ForbiddenError("CSRF_TOKEN_INVALID", "This form has expired. Reload the page and try again.");
  }
}

/** A `1:n` path segment. @throws NotFoundError PAGE_NOT_FOUND for anything else */
export function pathPair(page: PublicPageRequest, name: string): number {
  const id = parsePair(page.params[name] ?? "");
  if (id === undefined) throw pageNotFound();
  return id;
}

/** The error of an address with no page. */
export function pageNotFound(): NotFoundError {
  return new NotFoundError("PAGE_NOT_FOUND", "There is no page at this address.");
}
