// What members do to shared files in the browser: upload (the list page's form), a new version,
// move to a folder, trash, restore, delete for good. Plain forms that post and redirect; the
// script adds drag and drop and upload progress on top of the same forms.
import type { FastifyInstance, FastifyReply } from "fastify";
import { ValidationError } from "../../domain/errors.js";
import type { Folder } from "../../domain/folder.js";
import { type ContentRef, formatPair, parsePair } from "../../domain/item-id.js";
import { receiveMultipart } from "../../http/multipart.js";
import { clip } from "../../http-kit/query.js";
import { mediaType } from "../../http-kit/form.js";
import type { StagedFile } from "../../services/comment/comment.js";
import {
  type SameNameChoice,
  deleteFile,
  moveFile,
  setFileTrashed,
  uploadFile,
  uploadFileVersion,
} from "../../services/file/file-write.js";
import { errorText } from "../i18n/i18n.js";
import { type PageRequest, type WebContext, pageNotFound, pathPair, registerPage, requireCsrf } from "../page.js";
import { itemPath } from "./item-view.js";

/** A form shown again with what was typed and what was wrong. */
export interface ShownForm<V> {
  readonly values: V;
  readonly error: string;
  /** The refusal's code, for a form that offers a way on (FILE_NAME_EXISTS: version or separate file). */
  readonly code?: string;
}

/** The upload form's fields besides the file. */
export interface UploadValues {
  readonly title: string;
  readonly memo: string;
  /** `1:n`, or empty for no folder. */
  readonly folder: string;
  /** The person's answer when the folder holds a file of the same name; empty until asked. */
  readonly sameName: string;
}

/** The new-version form's field besides the file. */
export interface VersionValues {
  readonly comment: string;
}

/** Renders a page again with a form's problem (status 400). */
type ShowForm<V> = (form: ShownForm<V>) => Promise<FastifyReply>;

/** A folder as a form's select offers it. */
export function folderChoices(folders: readonly Folder[]): { value: string; label: string }[] {
  return folders.map((folder) => ({ value: formatPair(folder.id), label: folder.name }));
}

/** The POST routes under `/g/:group/files/:file`; `showFilePage` renders the file's page again with a problem. */
export function registerFileActions(
  app: FastifyInstance,
  web: WebContext,
  showFilePage: (page: PageRequest, form: ShownForm<VersionValues>) => Promise<FastifyReply>,
): void {
  const base = "/g/:group/files/:file";
  registerPage(
    app,
    web,
    `${base}/versions`,
    { POST: (page) => versionFromForm(web, page, (form) => showFilePage(page, form)) },
    { multipart: true },
  );
  registerPage(app, web, `${base}/move`, {
    async POST(page) {
      const ref = fileRef(page);
      await moveFile(web, page.actor, { ref, folderId: folderOf(page.form.get("folder") ?? "") });
      return page.redirect(itemPath(ref));
    },
  });
  for (const [action, trashed] of [
    ["trash", true],
    ["restore", false],
  ] as const) {
    registerPage(app, web, `${base}/${action}`, {
      async POST(page) {
        const ref = fileRef(page);
        await setFileTrashed(web, page.actor, { ref, trashed });
        return page.redirect(itemPath(ref));
      },
    });
  }
  registerPage(app, web, `${base}/delete`, {
    async POST(page) {
      const ref = fileRef(page);
      await deleteFile(web, page.actor, { ref });
      return page.redirect(`/g/${formatPair(ref.groupId)}/files?folder=TRASH`);
    },
  });
}

/** The list page's upload: one file, title, memo and folder. */
export async function uploadFromForm(web: WebContext, page: PageRequest, showForm: ShowForm<UploadValues>) {
  const groupId = pathPair(page, "group");
  return handleFileForm(web, page, UPLOAD_TEXT_PARTS, showForm, async (text, file) => {
    const values: UploadValues = {
      title: text.get("title") ?? "",
      // Browsers send a textarea's line breaks as CRLF; the memo keeps them as the API shows them, LF.
      memo: (text.get("memo") ?? "").replace(/\r\n?/g, "\n"),
      folder: text.get("folder") ?? "",
      sameName: text.get("sameName") ?? "",
    };
    const input = {
      groupId,
      title: values.title,
      memo: values.memo,
      folderId: folderOf(values.folder),
      file,
      sameName: sameNameChoice(values.sameName),
    };
    return {
      values,
      done: async () => itemPath({ kind: "CABINET", groupId, id: (await uploadFile(web, page.actor, input)).id }),
    };
  });
}

/** A person's answer about a file name already in the folder; until they answer, they are asked. */
function sameNameChoice(answer: string): SameNameChoice {
  return answer === "version" || answer === "separate" ? answer : "ask";
}

async function versionFromForm(web: WebContext, page: PageRequest, showForm: ShowForm<VersionValues>) {
  const ref = fileRef(page);
  return handleFileForm(web, page, VERSION_TEXT_PARTS, showForm, async (text, file) => {
    const values: VersionValues = { comment: text.get("comment") ?? "" };
    return {
      values,
      done: async () => {
        await uploadFileVersion(web, page.actor, { ref, comment: values.comment, file });
        return `${itemPath(ref)}#history`;
      },
    };
  });
}

/**
 * Receives a file form and runs its service: a redirect to where `done` leads, or the form again
 * with the problem. The received file is gone from the temporary area before the answer leaves.
 */
async function handleFileForm<V>(
  web: WebContext,
  page: PageRequest,
  textParts: ReadonlySet<string>,
  showForm: ShowForm<V>,
  read: (
    text: ReadonlyMap<string, string>,
    file: StagedFile | undefined,
  ) => Promise<{ values: V; done: () => Promise<string> }>,
): Promise<FastifyReply> {
  const received = await receiveFileForm(web, page, textParts);
  let outcome: { redirect: string } | { form: ShownForm<V> };
  try {
    const { values, done } = await read(received.text, received.file);
    try {
      outcome = { redirect: await done() };
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      outcome = { form: { values, error: errorText(page.chrome.lang, error.code, error.message), code: error.code } };
    }
  } finally {
    await received.discard();
  }
  return "redirect" in outcome ? page.redirect(outcome.redirect) : showForm(outcome.form);
}

const UPLOAD_TEXT_PARTS: ReadonlySet<string> = new Set(["_csrf", "title", "memo", "folder", "sameName"]);
const VERSION_TEXT_PARTS: ReadonlySet<string> = new Set(["_csrf", "comment"]);

/** A form with at most one file (`file`), its token checked before any byte is stored. */
interface ReceivedFileForm {
  readonly text: ReadonlyMap<string, string>;
  readonly file: StagedFile | undefined;
  discard(): Promise<void>;
}

/**
 * Reads a file form: multipart with `_csrf` before the file, or (without a file) a plain form.
 * @throws ForbiddenError CSRF_TOKEN_INVALID; ValidationError INVALID_FILE_PART, TOO_MANY_FILES; the multipart reader's errors
 */
async function receiveFileForm(
  web: WebContext,
  page: PageRequest,
  textParts: ReadonlySet<string>,
): Promise<ReceivedFileForm> {
  const csrf = page.session.csrf;
  if (mediaType(page.request) !== "multipart/form-data") {
    requireCsrf(page.form.get("_csrf") ?? undefined, csrf);
    return { text: new Map(page.form.entries()), file: undefined, discard: async () => undefined };
  }
  let kept = 0;
  const received = await receiveMultipart(page.request, page.reply, web.blobs, web.admission, {
    textParts,
    filePart(name, fileName, textSoFar) {
      requireCsrf(textSoFar.get("_csrf"), csrf);
      if (name !== "file")
        throw new ValidationError("INVALID_FILE_PART", `The file field is named file; "${clip(name)}" is not.`);
      // A file input left empty still sends a part, with no name and no bytes.
      if (fileName === "") return "skip";
      if (++kept > 1) throw new ValidationError("TOO_MANY_FILES", "Upload one file at a time.");
      return "keep";
    },
  });
  try {
    requireCsrf(received.text.get("_csrf"), csrf);
  } catch (error) {
    await received.discard();
    throw error;
  }
  return { text: received.text, file: received.files[0], discard: received.discard };
}

function fileRef(page: PageRequest): ContentRef {
  return { kind: "CABINET", groupId: pathPair(page, "group"), id: pathPair(page, "file") };
}

/** A folder field: empty for none, else `1:n`. @throws NotFoundError PAGE_NOT_FOUND for anything else */
function folderOf(value: string): number | null {
  if (value === "") return null;
  const id = parsePair(value);
  if (id === undefined) throw pageNotFound();
  return id;
}
