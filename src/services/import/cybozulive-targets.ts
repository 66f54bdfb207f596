// The groups an administrator may bring an export into from the browser (/admin/import): every
// group in use, by name; an archived group takes no import (the import refuses it too).
import type { ServiceContext } from "../context.js";
import { type Administrator, requireAdministrator } from "../account/site-admin.js";

/** A group an import may go into. */
export interface ImportGroupChoice {
  readonly id: number;
  readonly name: string;
}

/**
 * The groups in use, by name (then id).
 * @throws ForbiddenError ADMIN_REQUIRED
 */
export async function listImportGroups(ctx: ServiceContext, by: Administrator): Promise<ImportGroupChoice[]> {
  return ctx.store.read(async (tx) => {
    await requireAdministrator(tx, by);
    return (await tx.groups.listAll())
      .filter((group) => group.archivedAt === null)
      .map((group) => ({ id: group.id, name: group.name }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
  });
}
