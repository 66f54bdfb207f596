import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import type { FolderArea } from "../../../domain/folder.js";
import { foldersFeed, groupsFeed } from "../../../present/group.js";
import { listFolders, listMyGroups } from "../../../services/group/group.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import type { QueryValues } from "../../../http-kit/query.js";
import { readGroupParameter, readPage } from "../../../http-kit/parameters.js";
import { registerEndpoint } from "../../../http-kit/route.js";

/** `GET /api/group/V2`: the caller's groups (beyond the original API, docs/api.md "Groups and folders"). */
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

/** `GET /api/boardFolder/V2?group=` and the other folder lists (docs/api.md "Groups and folders"). */
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
