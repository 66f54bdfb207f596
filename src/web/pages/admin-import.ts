// The import of the original service's export from the browser (`/admin/import`): the zip is
// uploaded into memory (never to disk; at most --import-upload-mb), read by the command line's zip
// reader and imported by the command line's service function, as the administrator (the audit rows
// name them). "Check" is the command's --dry-run. The answer is the command's report, for people;
// a broken file is the form again with the one line that names the file, line and column.
import type { FastifyInstance } from "fastify";
import { ImportFileError } from "../../domain/cybozulive/errors.js";
import { DomainError, TooLargeError, ValidationError } from "../../domain/errors.js";
import { parsePair } from "../../domain/item-id.js";
import { LIMITS } from "../../domain/limits.js";
import { canonicalZone } from "../../domain/time-zone.js";
import { toErrorReply } from "../../http/errors.js";
import { receiveSmallFile } from "../../http/multipart.js";
import { mediaType } from "../../http-kit/form.js";
import { type ImportReport, type ImportTarget, importCybozuLive } from "../../services/import/cybozulive.js";
import { readExportZip } from "../../services/import/cybozulive-zip.js";
import { listImportGroups } from "../../services/import/cybozulive-targets.js";
import { errorText, formatSize } from "../i18n/i18n.js";
import { type WebContext, requireCsrf } from "../page.js";
import { type AdminPageRequest, registerAdminPage, renderAdmin } from "./admin-guard.js";

/** The export's times carry no zone: the original service ran on Japanese time (as the command line). */
const DEFAULT_ZONE = "Asia/Tokyo";

/** The form's fields as sent (shown again with the report or the error). */
interface ImportValues {
  /** The chosen group's id as a pair, or "" for a new group. */
  readonly group: string;
  readonly groupName: string;
  readonly tz: string;
}

/** An upload: the form's text fields, and the zip's bytes and name (undefined when no file was chosen). */
interface ExportUpload {
  readonly text: ReadonlyMap<string, string>;
  readonly zip: { readonly name: string; readonly bytes: Buffer } | undefined;
}

/** The `/admin/import` page and form. */
export function registerAdminImportPages(app: FastifyInstance, web: WebContext): void {
  registerAdminPage(
    app,
    web,
    "/admin/import",
    {
      GET: async (page) => importPage(web, page, { group: "", groupName: "", tz: DEFAULT_ZONE }),
      async POST(page) {
        const upload = await receiveExport(web, page);
        const values = {
          group: upload.text.get("group") ?? "",
          groupName: upload.text.get("group-name") ?? "",
          tz: upload.text.get("tz") ?? DEFAULT_ZONE,
        };
        try {
          const target = targetOf(values);
          const timeZone = zoneOf(values.tz);
          const files = await readExportZip(requireZip(upload.zip));
          if (files.length === 0)
            throw new ImportFileError(
              { file: upload.zip?.name ?? "", line: 0, column: 0 },
              "no .csv or .txt files in the zip",
            );
          const dryRun = upload.text.get("mode") !== "import";
          const report = await importCybozuLive(web, { files, target, timeZone, dryRun, by: page.by });
          return importPage(web, page, values, { report });
        } catch (error) {
          if (error instanceof ImportFileError) return importPage(web, page, values, { error: error.message });
          if (!(error instanceof DomainError) || error.kind === "too_large" || error.kind === "unavailable")
            throw error;
          const { status } = toErrorReply(error);
          return importPage(web, page, values, {
            error: errorText(page.chrome.lang, error.code, error.message),
            status,
          });
        }
      },
    },
    "group.import",
    { multipart: true },
  );
}

/**
 * The form's fields and the zip, after the form's CSRF token (sent before the file).
 * @throws ForbiddenError CSRF_TOKEN_INVALID; TooLargeError IMPORT_UPLOAD_TOO_LARGE; ValidationError INVALID_FILE_PART,
 *   MULTIPART_MALFORMED; UnavailableError TOO_MANY_UPLOADS, SHUTTING_DOWN
 */
async function receiveExport(web: WebContext, page: AdminPageRequest): Promise<ExportUpload> {
  const csrf = page.session.csrf;
  if (mediaType(page.request) !== "multipart/form-data") {
    requireCsrf(page.form.get("_csrf") ?? undefined, csrf);
    return { text: new Map(page.form), zip: undefined };
  }
  const maxBytes = web.config.limits.importUploadBytes;
  const received = await receiveSmallFile(page.request, page.reply, web.admission, {
    fileField: "export",
    maxBytes,
    tooLarge: () =>
      new TooLargeError(
        "IMPORT_UPLOAD_TOO_LARGE",
        `The zip file is larger than ${maxBytes} bytes, the most this server takes (--import-upload-mb).`,
      ),
    beforeFile: (text) => requireCsrf(text.get("_csrf"), csrf),
  });
  requireCsrf(received.text.get("_csrf"), csrf);
  // A view of the received bytes, not a copy (the zip may be tens of MB).
  const file = received.file;
  const bytes = file === undefined ? undefined : Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  return { text: received.text, zip: bytes === undefined ? undefined : { name: zipName(received.fileName), bytes } };
}

/** Control characters, taken out of an uploaded file's name. */
// eslint-disable-next-line no-control-regex -- control characters are what is taken out
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** How messages name the uploaded zip: its base name, one short line. */
function zipName(fileName: string | undefined): string {
  const base = (fileName ?? "").split(/[/\\]/).at(-1)?.replace(CONTROL, "") ?? "";
  return [...(base === "" ? "export.zip" : base)].slice(0, 100).join("");
}

/** @throws ValidationError IMPORT_FILE_REQUIRED (no file chosen, or an empty one) */
function requireZip(zip: ExportUpload["zip"]): { name: string; bytes: Buffer } {
  if (zip === undefined || zip.bytes.length === 0)
    throw new ValidationError("IMPORT_FILE_REQUIRED", "Choose the zip file of the export.");
  return zip;
}

/** An existing group chosen, or a new group's name: exactly one. @throws ValidationError IMPORT_GROUP_* */
function targetOf(values: ImportValues): ImportTarget {
  const name = values.groupName.trim();
  if (values.group === "") {
    if (name === "")
      throw new ValidationError("IMPORT_GROUP_REQUIRED", "Choose a group, or give the name of a new group.");
    return { groupName: name };
  }
  if (name !== "")
    throw new ValidationError("IMPORT_GROUP_TWICE", "Choose a group or give a new group's name, not both.");
  const groupId = parsePair(values.group);
  if (groupId === undefined) throw new ValidationError("IMPORT_GROUP_INVALID", "Choose a group of the list.");
  return { groupId };
}

/** An IANA zone, as the command line's --tz. @throws ValidationError IMPORT_TIME_ZONE_INVALID */
function zoneOf(text: string): string {
  const zone = canonicalZone(text.trim());
  if (zone === undefined)
    throw new ValidationError(
      "IMPORT_TIME_ZONE_INVALID",
      `The time zone must be an IANA time zone such as Asia/Tokyo (got "${text.slice(0, 40)}").`,
    );
  return zone;
}

async function importPage(
  web: WebContext,
  page: AdminPageRequest,
  values: ImportValues,
  outcome: { report?: ImportReport; error?: string; status?: number } = {},
) {
  const groups = await listImportGroups(web, page.by);
  const status = outcome.error === undefined ? 200 : (outcome.status ?? 400);
  return renderAdmin(
    page,
    "admin-import",
    "import",
    {
      values,
      groups,
      report: outcome.report,
      error: outcome.error,
      maxSize: formatSize(page.chrome.t, web.config.limits.importUploadBytes),
      nameMax: LIMITS.groupNameMaxChars,
    },
    status,
  );
}
