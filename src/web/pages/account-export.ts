// `GET /account/export`: the signed-in person's own data as one zip (services/account/my-data.ts
// reads it, present/my-data.ts writes its files), written to the response as it is read: one entry at a time, each file's
// bytes streamed from the blob store, so a large download holds no more than a few pages at once.
// archiver is loaded at the first download (docs/architecture.md "Libraries of one feature load
// when first used").
import type { FastifyInstance, FastifyReply } from "fastify";
import { entryWritten } from "../../services/zip-entries.js";
import { myDataFileName, myDataFiles } from "../../present/my-data.js";
import { readMyData } from "../../services/account/my-data.js";
import { type PageRequest, type WebContext, registerPage } from "../page.js";

export function registerAccountExport(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/account/export", { GET: (page) => sendMyData(web, page) }, { noPage: true });
}

async function sendMyData(web: WebContext, page: PageRequest): Promise<FastifyReply> {
  const { ZipArchive } = await import("archiver");
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const now = web.clock.now();
  const entries = myDataFiles(web.baseUrl(), web.config.locale, await readMyData(web, page.actor), now);
  // The first entries are read before the answer starts: a store fault is still an error page.
  const first = await entries.next();
  void (async () => {
    try {
      for (let next = first; !next.done; next = await entries.next()) {
        const { name, body } = next.value;
        const source = typeof body === "function" ? await body() : body;
        // A version whose bytes are gone from the blob store is left out (the rest still comes).
        if (source === undefined) continue;
        const appended = entryWritten(zip, "the download was closed");
        zip.append(source, { name });
        await appended;
      }
      await zip.finalize();
    } catch (error) {
      page.request.log.warn({ err: error }, "the download of a person's data stopped");
      zip.destroy(error instanceof Error ? error : new Error(String(error)));
    } finally {
      await entries.return(undefined);
    }
  })();
  return page.reply
    .code(200)
    .header("content-type", "application/zip")
    .header("content-disposition", `attachment; filename="${myDataFileName(now)}"`)
    .header("cache-control", "private, no-store")
    .header("x-content-type-options", "nosniff")
    .send(zip);
}
