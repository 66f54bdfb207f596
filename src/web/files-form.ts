// A form that carries text and up to 10 files named `files` (a comment, a chat message): read as
// multipart with the CSRF token checked before the first file is stored, or as a plain form.
import { ValidationError } from "../domain/errors.js";
import { type ReceivedMultipart, receiveMultipart } from "../http/multipart.js";
import { mediaType } from "../http-kit/form.js";
import { clip } from "../http-kit/query.js";
import { type PageRequest, type WebContext, requireCsrf } from "./page.js";

/**
 * The form's text parts and staged files. `_csrf` must come before any file; the caller checks it
 * again on the text (a plain form has no files) and discards the files when it does not commit them.
 * @throws ValidationError INVALID_FILE_PART, and what `receiveMultipart` throws
 */
export async function receiveFilesForm(
  web: WebContext,
  page: PageRequest,
  textParts: ReadonlySet<string>,
): Promise<ReceivedMultipart> {
  const csrf = page.session.csrf;
  if (mediaType(page.request) !== "multipart/form-data")
    return { text: new Map([...page.form.entries()]), files: [], discard: async () => undefined };
  return receiveMultipart(page.request, page.reply, web.blobs, web.admission, {
    textParts,
    filePart(name, fileName, textSoFar) {
      requireCsrf(textSoFar.get("_csrf"), csrf);
      if (name !== "files")
        throw new ValidationError("INVALID_FILE_PART", `File fields are named files; "${clip(name)}" is not.`);
      // A file input left empty still sends a part, with no name and no bytes.
      return fileName === "" ? "skip" : "keep";
    },
  });
}
