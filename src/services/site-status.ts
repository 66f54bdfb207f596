// The site's state as the administration's status page shows it: the database (engine, size,
// whether it answers and how fast), the stored files (where, how many bytes, the groups storing
// the most) and the mail queue. Read-only.
import type { GroupStoredBytes } from "../store/queries/group-admin.js";
import type { OutboxCounts } from "../store/queries/mail-outbox.js";
import { type Administrator, requireAdministrator } from "./account/site-admin.js";
import type { ServiceContext } from "./context.js";

/** Groups listed as storing the most. */
export const LARGEST_GROUPS_SHOWN = 10;

/** What the status page shows of the store. */
export interface SiteStatus {
  readonly databaseBytes: number;
  /** Milliseconds the status reads took: the database's health at a glance. */
  readonly readMs: number;
  readonly storedBytes: number;
  readonly largestGroups: readonly GroupStoredBytes[];
  readonly mail: OutboxCounts;
}

/**
 * The database's size, the stored bytes (in all and per group, the largest first) and the mail
 * queue, in one read.
 * @throws ForbiddenError ADMIN_REQUIRED
 */
export async function readSiteStatus(ctx: ServiceContext, by: Administrator): Promise<SiteStatus> {
  const started = performance.now();
  const status = await ctx.store.read(async (tx) => {
    await requireAdministrator(tx, by);
    return {
      databaseBytes: await tx.siteStatus.databaseBytes(),
      storedBytes: await tx.siteStatus.storedBytes(),
      largestGroups: await tx.groupAdmin.largest(LARGEST_GROUPS_SHOWN),
      mail: await tx.mailOutbox.counts(),
    };
  });
  return { ...status, readMs: Math.round((performance.now() - started) * 10) / 10 };
}
