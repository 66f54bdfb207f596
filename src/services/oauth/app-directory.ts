// The applications as the administration reads them (never their secrets).
import { NotFoundError } from "../../domain/errors.js";
import type { DetailedApplication } from "../../store/queries/apps.js";
import { type Administrator, requireAdministrator } from "../account/site-admin.js";
import type { ServiceContext } from "../context.js";

/**
 * Every application, in id order, with its live tokens counted.
 * @throws ForbiddenError ADMIN_REQUIRED
 */
export async function listApplications(ctx: ServiceContext, by: Administrator): Promise<DetailedApplication[]> {
  return ctx.store.read(async (tx) => {
    await requireAdministrator(tx, by);
    return tx.apps.listDetailed();
  });
}

/**
 * One application by id.
 * @throws ForbiddenError ADMIN_REQUIRED; NotFoundError APPLICATION_NOT_FOUND
 */
export async function readApplication(
  ctx: ServiceContext,
  by: Administrator,
  appId: number,
): Promise<DetailedApplication> {
  const app = (await listApplications(ctx, by)).find((candidate) => candidate.id === appId);
  if (!app) throw new NotFoundError("APPLICATION_NOT_FOUND", "No application has this id.");
  return app;
}
