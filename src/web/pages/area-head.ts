// What the list page of each area of a group (board, files, tasks, members) starts with.
import type { PageRequest, WebContext } from "../page.js";

/** Each area's feed, offered for autodiscovery on its list page. */
const AREA_FEEDS = {
  board: "/api/board/V2",
  files: "/api/gwCabinet/V2",
  tasks: "/api/gwTask/V2",
  members: "/api/gwMemberList/V2",
} as const;

/** The areas of a group, as the templates' tabs name them. */
export type Area = keyof typeof AREA_FEEDS;

/** The page title, the group, the area's tab and its feed (`feedQuery` picks the same items as the page). */
export function areaHead(
  web: WebContext,
  page: PageRequest,
  group: { readonly name: string },
  area: Area,
  feedQuery: URLSearchParams,
) {
  const name = page.chrome.t(`${area}.title`);
  return {
    title: `${name} · ${group.name}`,
    group,
    area,
    feed: { title: `${group.name}: ${name}`, href: `${web.baseUrl()}${AREA_FEEDS[area]}?${feedQuery.toString()}` },
  };
}
