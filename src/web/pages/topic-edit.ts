// Writing topics: new (`/g/1:n/board/new`), edit under the edit lease: pressing Edit takes it
// (`.../1:m/lock`, a POST), the form (`.../1:m/edit`) is shown to its holder, the script keeps it
// while the person types (`/lease`), Cancel gives it back (`/release`) and saving ends it.
import { isoMoment } from "../i18n/dates.js";
import { mentionSource } from "../mention-html.js";
import type { FastifyInstance } from "fastify";
import { ValidationError } from "../../domain/errors.js";
import { type ContentRef, formatPair, parsePair } from "../../domain/item-id.js";
import { queryValue } from "../../http-kit/query.js";
import { listFolders } from "../../services/group/group.js";
import {
  type LockedTopicView,
  createTopic,
  lockTopic,
  releaseEditLease,
  updateTopic,
} from "../../services/topic/topic.js";
import { type TopicEditorView, readTopicEditor } from "../../services/topic/topic-web.js";
import { errorText } from "../i18n/i18n.js";
import { type PageRequest, type WebContext, pageNotFound, pathPair, registerPage } from "../page.js";
import { itemPath } from "./item-view.js";

/** The topic-writing routes. */
export function registerTopicEditPages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/g/:group/board/new", {
    GET: async (page) =>
      newTopicForm(web, page, {
        title: "",
        body: "",
        folder: queryValue(page.query, "folder") ?? "",
        allowEdit: false,
      }),
    POST: (page) => createFromForm(web, page),
  });
  registerPage(app, web, "/g/:group/board/:topic/edit", {
    // A GET changes nothing: without the caller's own lease it offers the Edit button.
    async GET(page) {
      const ref = topicRef(page);
      const editor = await readTopicEditor(web, page.actor, { ref });
      if (editor.ownLease === undefined) return startPage(page, ref, editor);
      return editForm(
        page,
        { ...editor, lease: editor.ownLease },
        { title: editor.topic.title, body: editor.topic.body },
      );
    },
    POST: (page) => saveFromForm(web, page),
  });
  registerPage(app, web, "/g/:group/board/:topic/lock", {
    async POST(page) {
      const ref = topicRef(page);
      await lockTopic(web, page.actor, { ref, refuseTrashed: true });
      return page.redirect(`${itemPath(ref)}/edit`);
    },
  });
  registerPage(app, web, "/g/:group/board/:topic/release", {
    async POST(page) {
      const ref = topicRef(page);
      await releaseEditLease(web, page.actor, { ref });
      return page.redirect(itemPath(ref));
    },
  });
  registerPage(app, web, "/g/:group/board/:topic/lease", {
    // The script's renewal: the new end goes back in a header, for the notice to show it.
    async POST(page) {
      const { lease } = await lockTopic(web, page.actor, { ref: topicRef(page), refuseTrashed: true });
      return page.reply
        .code(204)
        .header("cache-control", "no-store")
        .header(LEASE_UNTIL_HEADER, isoMoment(lease.until))
        .send();
    },
  });
}

/** The header of a lease renewal that carries the lease's new end (UTC, RFC 3339). */
export const LEASE_UNTIL_HEADER = "x-lease-until";

/** The edit page of someone who holds no lease: what Edit does, and the button. */
function startPage(page: PageRequest, ref: ContentRef, editor: TopicEditorView) {
  const path = itemPath(ref);
  return page.render("topic-edit-start", {
    title: `${page.chrome.t("edit.editTitle")} · ${editor.topic.title}`,
    heading: page.chrome.t("edit.editTitle"),
    group: editor.group,
    area: "board",
    topicTitle: editor.topic.title,
    lockAction: page.chrome.u(`${path}/lock`),
    topicHref: page.chrome.u(path),
  });
}

function topicRef(page: PageRequest): ContentRef {
  return { kind: "BOARD", groupId: pathPair(page, "group"), id: pathPair(page, "topic") };
}

interface NewTopicValues {
  readonly title: string;
  readonly body: string;
  readonly folder: string;
  readonly allowEdit: boolean;
}

async function newTopicForm(web: WebContext, page: PageRequest, values: NewTopicValues, error?: string) {
  const { group, folders } = await listFolders(web, page.actor, {
    groupId: pathPair(page, "group"),
    area: "BOARD",
    page: { offset: 0, limit: 100 },
  });
  return page.render(
    "topic-form",
    {
      title: `${page.chrome.t("edit.newTitle")} · ${group.name}`,
      heading: page.chrome.t("edit.newTitle"),
      group,
      area: "board",
      action: page.chrome.u(`/g/${formatPair(group.id)}/board/new`),
      cancelHref: page.chrome.u(`/g/${formatPair(group.id)}/board`),
      mentionSource: mentionSource(page.chrome, group.id),
      values,
      folders: folders.map((folder) => ({ value: formatPair(folder.id), label: folder.name })),
      error,
      isNew: true,
    },
    error === undefined ? 200 : 400,
  );
}

async function createFromForm(web: WebContext, page: PageRequest) {
  const groupId = pathPair(page, "group");
  const values: NewTopicValues = {
    title: page.form.get("title") ?? "",
    body: page.form.get("body") ?? "",
    folder: page.form.get("folder") ?? "",
    allowEdit: page.form.get("allowEdit") === "on",
  };
  const folderId = values.folder === "" ? null : parsePair(values.folder);
  if (folderId === undefined) throw pageNotFound();
  try {
    const view = await createTopic(web, page.actor, {
      groupId,
      title: values.title,
      body: values.body,
      folderId,
      allowEdit: values.allowEdit,
    });
    const topic = view.topics[0];
    if (!topic) throw new Error("createTopic returned no topic");
    return page.redirect(itemPath({ kind: "BOARD", groupId, id: topic.id }));
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return newTopicForm(web, page, values, errorText(page.chrome.lang, error.code, error.message));
  }
}

function editForm(
  page: PageRequest,
  editor: Pick<LockedTopicView, "group" | "topic" | "lease">,
  values: { title: string; body: string },
  error?: string,
) {
  const path = itemPath({ kind: "BOARD", groupId: editor.group.id, id: editor.topic.id });
  return page.render(
    "topic-form",
    {
      title: `${page.chrome.t("edit.editTitle")} · ${editor.topic.title}`,
      heading: page.chrome.t("edit.editTitle"),
      group: editor.group,
      area: "board",
      action: page.chrome.u(`${path}/edit`),
      releaseAction: page.chrome.u(`${path}/release`),
      leaseAction: page.chrome.u(`${path}/lease`),
      leaseUntil: editor.lease.until,
      mentionSource: mentionSource(page.chrome, editor.group.id),
      values: { ...values, folder: "", allowEdit: false },
      folders: [],
      error,
      isNew: false,
    },
    error === undefined ? 200 : 400,
  );
}

async function saveFromForm(web: WebContext, page: PageRequest) {
  const ref = topicRef(page);
  const values = { title: page.form.get("title") ?? "", body: page.form.get("body") ?? "" };
  try {
    await updateTopic(web, page.actor, { ref, ...values, refuseTrashed: true });
    return page.redirect(itemPath(ref));
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    // The form stays open: keep (renew) the lease and show what was typed with the problem.
    const editor = await lockTopic(web, page.actor, { ref, refuseTrashed: true });
    return editForm(page, editor, values, errorText(page.chrome.lang, error.code, error.message));
  }
}
