// The picture form's body: multipart with `_csrf` before one file part `picture`. A picture is
// small (LIMITS.pictureMaxBytes), so it is read into memory rather than staged on disk like a
// comment's files (the API's multipart reader does both, under the same upload slots).
import { TooLargeError } from "../../domain/errors.js";
import { LIMITS } from "../../domain/limits.js";
import { mediaType } from "../../http-kit/form.js";
import { receiveSmallFile } from "../../http/multipart.js";
import { type PageRequest, type WebContext, requireCsrf } from "../page.js";

/**
 * The bytes of the chosen picture (empty when none was chosen), after the form's CSRF token.
 * @throws ForbiddenError CSRF_TOKEN_INVALID; TooLargeError PICTURE_TOO_LARGE; ValidationError INVALID_FILE_PART,
 *   MULTIPART_MALFORMED; UnavailableError TOO_MANY_UPLOADS, SHUTTING_DOWN
 */
export async function receivePicture(web: WebContext, page: PageRequest): Promise<Uint8Array> {
  const csrf = page.session.csrf;
  if (mediaType(page.request) !== "multipart/form-data") {
    requireCsrf(page.form.get("_csrf") ?? undefined, csrf);
    return new Uint8Array();
  }
  const received = await receiveSmallFile(page.request, page.reply, web.admission, {
    fileField: "picture",
    maxBytes: LIMITS.pictureMaxBytes,
    tooLarge: () =>
      new TooLargeError("PICTURE_TOO_LARGE", `The picture is larger than ${LIMITS.pictureMaxBytes} bytes.`),
    beforeFile: (text) => requireCsrf(text.get("_csrf"), csrf),
  });
  requireCsrf(received.text.get("_csrf"), csrf);
  return received.file ?? new Uint8Array();
}
