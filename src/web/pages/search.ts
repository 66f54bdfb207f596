// The search page (`/search?q=&group=&kind=&page=`): results with highlighted excerpts, filters by
// group and kind, paging; everything in the address, so a search can be shared. And the
// OpenSearch description browsers read to add Kairan as a search engine.
import type { FastifyInstance } from "fastify";
import { fileTitle } from "../../domain/file.js";
import { ValidationError } from "../../domain/errors.js";
import { type ContentRef, formatPair } from "../../domain/item-id.js";
import { SEARCH_LIMITS } from "../../domain/limits.js";
import { SEARCH_KINDS, type SearchKind, parseSearchKind, parseSearchQuery } from "../../domain/search.js";
import { listMyGroups } from "../../services/group/group.js";
import {
  type FoundItem,
  type FoundOther,
  type SearchInput,
  isFoundContent,
  searchItems,
} from "../../services/search/search.js";
import { readGroupId } from "../../http-kit/parameters.js";
import { type QueryValues, queryValue } from "../../http-kit/query.js";
import { registerEndpoint } from "../../http-kit/route.js";
import type { Chrome } from "../chrome.js";
import type { MessageKey } from "../i18n/en.js";
import { type SafeHtml, html } from "../layout.js";
import { type WebContext, registerPage } from "../page.js";
import { type RequestedPage, paged, readPageNumber, withQuery } from "../paging.js";
import { roomPath } from "./chat-paths.js";
import { itemPath } from "./item-view.js";
import { personalEventPath } from "./my-event-paths.js";

/** The groups a filter offers: a person's joined groups, up to this many. */
const FILTER_GROUPS = 1000;

const KIND_LABELS: Readonly<Record<SearchKind, MessageKey>> = {
  BOARD: "search.kind.BOARD",
  COMMENT: "search.kind.COMMENT",
  TASK: "search.kind.TASK",
  CABINET: "search.kind.CABINET",
  G_SCHEDULE: "search.kind.G_SCHEDULE",
  M_SCHEDULE: "search.kind.M_SCHEDULE",
  M_CHAT: "search.kind.M_CHAT",
  GROUP: "search.kind.GROUP",
};

const REFUSALS: Readonly<Record<string, MessageKey>> = {
  SEARCH_QUERY_TOO_LONG: "search.tooLong",
  SEARCH_QUERY_EMPTY: "search.empty",
};

/** `/search` and `/opensearch.xml`. */
export function registerSearchPages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/search", {
    async GET(page) {
      const { chrome } = page;
      const text = queryValue(page.query, "q") ?? "";
      const groups = await listMyGroups(web, page.actor, { offset: 0, limit: FILTER_GROUPS });
      const base = {
        title: text.trim() === "" ? chrome.t("search.title") : chrome.t("search.titleFor", { q: text }),
        searchText: text,
        groups: groups.map((group) => ({ pair: formatPair(group.id), name: group.name })),
        kinds: SEARCH_KINDS.map((kind) => ({ value: kind, label: chrome.t(KIND_LABELS[kind]) })),
        groupValue: queryValue(page.query, "group") ?? "",
        kindValue: (queryValue(page.query, "kind") ?? "").toUpperCase(),
        feed: text.trim() === "" ? undefined : { title: text, href: feedHref(web.baseUrl(), page.query) },
      };
      if (text.trim() === "") return page.render("search", { ...base, results: undefined, problem: undefined });
      const request = readPageNumber(page.query);
      let input: SearchInput;
      try {
        input = readInput(page.query, text, request);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        const problem = chrome.t(REFUSALS[error.code] ?? "search.badFilter", { n: SEARCH_LIMITS.queryMaxChars });
        return page.render("search", { ...base, results: undefined, problem }, 400);
      }
      const view = await searchItems(web, page.actor, input);
      const results = paged(
        view.items.map((item) => resultRow(chrome, item)),
        request,
        (n) => chrome.u(withQuery("/search", { q: text, group: base.groupValue, kind: base.kindValue, page: n })),
      );
      return page.render("search", {
        ...base,
        problem: undefined,
        results,
        count: chrome.t(view.bounded ? "search.countBounded" : "search.count", { n: view.total }),
        scanned: view.query.mode === "scan" ? chrome.t("search.scanned", { n: SEARCH_LIMITS.scanItemsPerKind }) : "",
      });
    },
  });
  registerEndpoint(
    app,
    "/opensearch.xml",
    {
      async GET(_request, reply) {
        return reply
          .code(200)
          .header("content-type", "application/opensearchdescription+xml; charset=utf-8")
          .header("cache-control", "public, max-age=86400")
          .send(openSearchDescription(web.baseUrl()));
      },
    },
    // Browsers fetch it without a session; it holds nothing but the server's address.
    { public: true },
  );
}

/** @throws ValidationError SEARCH_QUERY_*, INVALID_CATEGORY, INVALID_GROUP */
function readInput(query: QueryValues, text: string, request: RequestedPage): SearchInput {
  const group = queryValue(query, "group")?.trim() ?? "";
  return {
    query: parseSearchQuery(text),
    kind: parseSearchKind(queryValue(query, "kind")),
    among: SEARCH_KINDS,
    groupId: group === "" ? null : readGroupId(group, "group"),
    page: request.fetch,
  };
}

/** The same search as an Atom feed of the API (the page's `<link rel="alternate">`). */
function feedHref(baseUrl: string, query: QueryValues): string {
  const params = new URLSearchParams({ q: queryValue(query, "q") ?? "" });
  const group = queryValue(query, "group")?.trim();
  const kind = queryValue(query, "kind")?.trim();
  if (group) params.set("group", group);
  if (kind) params.set("category", kind);
  return `${baseUrl}/api/search/V2?${params.toString()}`;
}

function resultRow(chrome: Chrome, item: FoundItem) {
  if (!isFoundContent(item)) return otherRow(chrome, item);
  const ref = (id: number): ContentRef => ({ kind: item.kind as ContentRef["kind"], groupId: item.group.id, id });
  const common = { kind: chrome.t(KIND_LABELS[item.kind]), groupName: item.group.name, excerpt: excerptHtml(item) };
  switch (item.kind) {
    case "BOARD":
      return {
        ...common,
        title: item.topic.title,
        href: chrome.u(itemPath(ref(item.topic.id))),
        at: item.topic.updatedAt,
      };
    case "TASK":
      return {
        ...common,
        title: item.task.title,
        href: chrome.u(itemPath(ref(item.task.id))),
        at: item.task.updatedAt,
      };
    case "CABINET":
      return {
        ...common,
        title: fileTitle(item.file),
        href: chrome.u(itemPath(ref(item.file.id))),
        at: item.file.updatedAt,
      };
    case "COMMENT": {
      const { comment } = item.detail;
      return {
        ...common,
        title: chrome.t("search.commentOn", { title: item.parentTitle }),
        href: chrome.u(`${itemPath(comment.parent)}#comment-${comment.number}`),
        at: comment.createdAt,
      };
    }
  }
}

/** A row of an event, a personal event, a chat message or a group. */
function otherRow(chrome: Chrome, item: FoundOther) {
  const common = { kind: chrome.t(KIND_LABELS[item.kind]), excerpt: excerptHtml(item) };
  switch (item.kind) {
    case "G_SCHEDULE": {
      const ref: ContentRef = { kind: "GW_SCHEDULE", groupId: item.group.id, id: item.entry.event.id };
      return {
        ...common,
        groupName: item.group.name,
        title: item.entry.event.title,
        href: chrome.u(itemPath(ref)),
        at: item.entry.event.updatedAt,
      };
    }
    case "M_SCHEDULE":
      return {
        ...common,
        groupName: chrome.t("search.myCalendar"),
        title: item.entry.event.title,
        href: chrome.u(personalEventPath(item.entry.event.id)),
        at: item.entry.event.updatedAt,
      };
    case "M_CHAT":
      return {
        ...common,
        groupName: chrome.t("search.inRoom", { room: item.roomTitle }),
        title: item.message.authorName,
        href: chrome.u(`${roomPath(item.message.roomId)}#comment-${item.message.number}`),
        at: item.message.createdAt,
      };
    case "GROUP":
      return {
        ...common,
        groupName: item.group.name,
        title: item.group.name,
        href: chrome.u(`/g/${formatPair(item.group.id)}/board`),
        at: item.group.updatedAt,
      };
  }
}

/** The excerpt with its hits in `<mark>`, every piece of text escaped. */
function excerptHtml(item: FoundItem): SafeHtml {
  return html`${item.excerpt.map((part) => (part.hit ? html`<mark>${part.text}</mark>` : part.text))}`;
}

function openSearchDescription(baseUrl: string): string {
  const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return `<?xml version="1.0" encoding="UTF-8"?>
<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
<ShortName>Kairan</ShortName>
<Description>Kairan: topics, comments, tasks, files, events and chat messages of your groups</Description>
<InputEncoding>UTF-8</InputEncoding>
<Url type="text/html" method="get" template="${escape(baseUrl)}/search?q={searchTerms}"/>
<Url type="application/atom+xml" method="get" template="${escape(baseUrl)}/api/search/V2?q={searchTerms}"/>
</OpenSearchDescription>
`;
}
