import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import type { FolderArea } from "../../../domain/folder.js";
import { foldersFeed, groupsFeed } from "../../../present/group.js";
import { listFolders, listMyGroups } from "../../../services/group.js";
import { type Context, authenticateRequest, sendFeed, viewerOf } from "../../context.js";
import { type QueryValues, readGroupParameter, readPage } from "../../query.js";
import { registerEndpoint } from "../../route.js";

/** `GET /api/group/V2`: the caller's groups (beyond the spec, decisions.md §7). */
export function registerGroups(app: FastifyInstance, context: Context): void {
  registerEndpoint(app, "/api/group/V2", {
    async GET(request, reply) {
      const actor = await authenticateRequest(context, request);
      const page = readPage(request.query as QueryValues);
      requireAccess(actor, "read");
      const groups = await listMyGroups(context, actor, page);
      return sendFeed(reply, groupsFeed(context.baseUrl(), viewerOf(actor), groups, context.clock.now()));
    },
  });
}

/** `GET /api/boardFolder/V2?group=` and the other folder lists (decisions.md §7). */
export function registerFolderList(app: FastifyInstance, context: Context, url: string, area: FolderArea): void {
  registerEndpoint(app, url, {
    async GET(request, reply) {
      const actor = await authenticateRequest(context, request);
      const query = request.query as QueryValues;
      const input = { groupId: readGroupParameter(query), area, page: readPage(query) };
      requireAccess(actor, "read");
      const { group, folders } = await listFolders(context, actor, input);
      return sendFeed(reply, foldersFeed(context.baseUrl(), viewerOf(actor), group, folders, area));
    },
  });
}
