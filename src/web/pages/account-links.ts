// What the pages of account links share: the clear page of a link that does not work (unknown,
// used, expired), with the way to a new one.
import { DomainError } from "../../domain/errors.js";
import { toErrorReply } from "../../http/errors.js";
import { errorText } from "../i18n/i18n.js";
import type { PublicPageRequest } from "../page.js";

const LINK_CODES = new Set(["LINK_NOT_FOUND", "LINK_USED", "LINK_EXPIRED", "SETUP_DONE"]);

/** Whether `error` says the link itself does not work (as opposed to what was typed in its form). */
export function isLinkProblem(error: unknown): error is DomainError {
  return error instanceof DomainError && LINK_CODES.has(error.code);
}

/** The page of a link that does not work, with its status (404 unknown, 400 used or expired). */
export function linkProblemPage(page: PublicPageRequest, error: DomainError, againPath: string | undefined) {
  return page.render(
    "link-problem",
    {
      title: page.chrome.t("link.title"),
      problem: errorText(page.chrome.lang, error.code, error.message),
      againHref: againPath === undefined ? undefined : page.chrome.u(againPath),
    },
    toErrorReply(error).status,
  );
}
