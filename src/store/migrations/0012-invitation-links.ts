import type { Kysely, Migration } from "kysely";

/**
 * Invitation links: the SHA-256 of the secret an invitation's link carries (null for invitations
 * made without a link: the command line, seed files), and an index for the invitations waiting
 * for one e-mail address (an invited person's home page).
 */
export const invitationLinks = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("memberships").addColumn("invite_token_hash", "text").execute();
    await db.schema.createIndex("memberships_invite_email").on("memberships").columns(["invite_email"]).execute();
  },
});
