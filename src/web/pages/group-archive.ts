// `GET /g/:group/export`: a group's portable archive (services/archive/), for its managers, as one
// zip written to the response as it is read (the same as `kairan export FILE --group ID`).
import { PassThrough } from "node:stream";
import type { FastifyInstance } from "fastify";
import { archiveFileName } from "../../domain/archive.js";
import { contentDisposition } from "../../http-kit/send.js";
import { archiveMembers } from "../../present/archive.js";
import { writeArchiveZip } from "../../services/archive/archive-zip-write.js";
import { readGroupArchive } from "../../services/archive/group-archive.js";
import { type WebContext, pathPair, registerPage } from "../page.js";

/** `/g/:group/export`. */
export function registerGroupArchive(app: FastifyInstance, web: WebContext): void {
  registerPage(
    app,
    web,
    "/g/:group/export",
    {
      async GET(page) {
        const now = web.clock.now();
        const { group, parts } = await readGroupArchive(web, page.actor, { groupId: pathPair(page, "group") });
        const members = archiveMembers(parts, web.baseUrl(), now, web.config.locale);
        const body = new PassThrough();
        writeArchiveZip(members, { groups: [group.id], now }, body).catch((error: unknown) => {
          page.request.log.warn({ err: error }, "the download of a group's archive stopped");
          body.destroy(error instanceof Error ? error : new Error(String(error)));
        });
        return page.reply
          .code(200)
          .header("content-type", "application/zip")
          .header("content-disposition", contentDisposition(archiveFileName(group.id, now)))
          .header("cache-control", "private, no-store")
          .header("x-content-type-options", "nosniff")
          .send(body);
      },
    },
    { noPage: true },
  );
}
