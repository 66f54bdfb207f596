// Errors on pages: the same table as the API (http/errors.ts decides the status), answered as
// an HTML page in the reader's language instead of an XML document.
import type { FastifyReply, FastifyRequest } from "fastify";
import { DomainError } from "../domain/errors.js";
import { TopicBeingEditedError } from "../domain/topic.js";
import { logStorageFull, toErrorReply } from "../http/errors.js";
import { drainRefusedBody, drainsBeforeAnswer } from "../http-kit/refused-body.js";
import { sendPage } from "../http-kit/send.js";
import type { Chrome } from "./chrome.js";
import { errorText } from "./i18n/i18n.js";
import { type WebContext, anonymousChrome, chromeOf, renderPage } from "./page.js";

/** Codes whose page text is one of the interface's own. */
const OWN_TEXT: Readonly<
  Record<string, "error.csrf" | "error.signedOut" | "error.pageNotFound" | "error.notMember" | "error.storageFull">
> = {
  CSRF_TOKEN_INVALID: "error.csrf",
  SIGNED_OUT: "error.signedOut",
  PAGE_NOT_FOUND: "error.pageNotFound",
  NOT_FOUND: "error.pageNotFound",
  // A non-member learns nothing, not even whether the group exists.
  GROUP_NOT_JOINED: "error.notMember",
  GROUP_NOT_FOUND: "error.notMember",
  // The operator's problem, not the reader's: said plainly, so that they can tell the operator.
  STORAGE_FULL: "error.storageFull",
};

/** The fastify error handler of the web pages. Faults are logged, never echoed. */
export function webErrorHandler(web: WebContext) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<void> => {
    const answer = toErrorReply(error);
    if (!logStorageFull(request, error)) {
      if (answer.status >= 500) request.log.error({ err: error }, "page failed");
      else request.log.info({ code: answer.code, status: answer.status }, "page refused");
    }
    const chrome = chromeOf(request) ?? anonymousChrome(web, request);
    const send = () => sendErrorPage(reply, chrome, answer.status, describe(chrome, error, answer));
    // A refused body is read to its end first (bounded), so that the browser gets to show the page.
    if (drainsBeforeAnswer(answer.status, request.raw)) return drainRefusedBody(request.raw).then(() => void send());
    return send();
  };
}

/** The HTML 404 for an address that has no page (browsers, not API clients). */
export function sendPageNotFound(web: WebContext, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const chrome = anonymousChrome(web, request);
  return sendErrorPage(reply, chrome, 404, { message: chrome.t("error.pageNotFound"), signIn: false });
}

function sendErrorPage(
  reply: FastifyReply,
  chrome: Chrome,
  status: number,
  view: { message: string; signIn: boolean; heading?: string },
): FastifyReply {
  const heading = view.heading ?? chrome.t(titleOf(status));
  return sendPage(
    reply,
    status,
    renderPage(chrome, "error", { title: heading, heading, message: view.message, signIn: view.signIn, isError: true }),
  );
}

const TITLED = [400, 401, 403, 404, 405, 409, 413, 414, 415, 429, 500, 503, 507] as const;

/** The heading of an error page: its status's own, else its class's (a status without text must not fail the page). */
function titleOf(status: number): `error.title.${(typeof TITLED)[number]}` {
  const titled = TITLED.find((candidate) => candidate === status) ?? (status >= 500 ? 500 : 400);
  return `error.title.${titled}`;
}

function describe(
  chrome: Chrome,
  error: unknown,
  answer: { status: number; code: string; message: string },
): { message: string; signIn: boolean; heading?: string } {
  if (error instanceof TopicBeingEditedError) {
    return {
      heading: chrome.t("edit.refused"),
      message: chrome.t("topic.beingEdited", { name: error.lease.userName, until: chrome.time(error.lease.until) }),
      signIn: false,
    };
  }
  const own = OWN_TEXT[answer.code];
  if (own) return { message: chrome.t(own), signIn: answer.code === "SIGNED_OUT" };
  if (answer.status >= 500) return { message: chrome.t("error.server"), signIn: false };
  return {
    message: error instanceof DomainError ? errorText(chrome.lang, answer.code, answer.message) : answer.message,
    signIn: false,
  };
}

/** True for a request a browser makes for a page (not an API client, which gets XML). */
export function wantsPage(request: FastifyRequest): boolean {
  const path = request.url.split("?")[0] ?? "";
  if (path.startsWith("/api/") || path.startsWith("/oauth/")) return false;
  return (request.headers.accept ?? "").includes("text/html");
}
