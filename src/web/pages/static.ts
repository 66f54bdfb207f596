import type { FastifyInstance } from "fastify";
import { registerEndpoint } from "../../http/route.js";
import type { WebContext } from "../page.js";
import { pageNotFound } from "../page.js";

/** `/static/app.css` and `/static/app.js`: versioned by the pages' `?v=`, so cached for long. */
export function registerStatic(app: FastifyInstance, web: WebContext): void {
  registerEndpoint(app, "/static/:name", {
    async GET(request, reply) {
      const asset = web.assets.files.get((request.params as { name: string }).name);
      if (!asset) throw pageNotFound();
      return reply
        .code(200)
        .header("content-type", asset.contentType)
        .header("cache-control", "public, max-age=31536000, immutable")
        .header("x-content-type-options", "nosniff")
        .send(asset.body);
    },
  });
}
