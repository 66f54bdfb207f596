// The downloads of a group's lists: `/g/:group/tasks/export` (the task list under the page's
// filters) and `/g/:group/members/export` (the joined members), as CSV for any member.
import type { FastifyInstance, FastifyReply } from "fastify";
import { readFolderParameter } from "../../http-kit/parameters.js";
import { contentDisposition } from "../../http-kit/send.js";
import { listFileName, memberCsv, taskCsv } from "../../present/list-export.js";
import { readMemberExport } from "../../services/member/member-export.js";
import { readTaskExport } from "../../services/task/task-export.js";
import { type PageRequest, type WebContext, pathPair, registerPage } from "../page.js";
import { readTaskFilters, taskFilterOf } from "./tasks.js";

/** `/g/:group/tasks/export` and `/g/:group/members/export` (before the item pages: `export` is no id). */
export function registerListExports(app: FastifyInstance, web: WebContext): void {
  registerPage(
    app,
    web,
    "/g/:group/tasks/export",
    {
      async GET(page) {
        const filters = readTaskFilters(page.query);
        const view = await readTaskExport(web, page.actor, {
          groupId: pathPair(page, "group"),
          folder: readFolderParameter(filters.folder, "folder"),
          filter: taskFilterOf(filters, web.clock.now()),
        });
        const csv = taskCsv(view.tasks, { baseUrl: web.baseUrl(), zone: page.chrome.timeZone });
        return sendCsv(page, listFileName(view.group.name, "tasks"), csv);
      },
    },
    { noPage: true },
  );
  registerPage(
    app,
    web,
    "/g/:group/members/export",
    {
      async GET(page) {
        const view = await readMemberExport(web, page.actor, { groupId: pathPair(page, "group") });
        return sendCsv(
          page,
          listFileName(view.group.name, "members"),
          memberCsv(view.members, { zone: page.chrome.timeZone }),
        );
      },
    },
    { noPage: true },
  );
}

function sendCsv(page: PageRequest, fileName: string, csv: string): FastifyReply {
  return page.reply
    .header("content-type", "text/csv; charset=utf-8")
    .header("content-disposition", contentDisposition(fileName))
    .header("cache-control", "no-store")
    .header("x-content-type-options", "nosniff")
    .send(csv);
}
