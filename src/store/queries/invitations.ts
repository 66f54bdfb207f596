import type { Kysely } from "kysely";
import type { Database } from "../schema.js";

/** An invitation as its link and its invitee see it. */
export interface InvitationRow {
  readonly memberId: number;
  readonly groupId: number;
  readonly groupName: string;
  readonly groupSummary: string;
  readonly email: string;
  readonly expiresAt: number | null;
  /** The SHA-256 of the link's secret; null for an invitation made without a link. */
  readonly tokenHash: string | null;
  /** When its message was last queued; null when none was (migration 0033). */
  readonly sentAt: number | null;
  /** The imported placeholder account it hands over, and its name; null for an ordinary invitation (migration 0046). */
  readonly claimUserId: number | null;
  readonly claimName: string | null;
}

/** Invitations (membership rows of status INVITE) as the web interface takes and answers them. */
export interface InvitationRepo {
  /** The invitation of the group for this (normalised) address, if one waits. */
  findForEmail(groupId: number, email: string): Promise<number | undefined>;
  /** An invitation by member id, with its group. */
  find(memberId: number): Promise<InvitationRow | undefined>;
  /** Every invitation of the group, oldest first (an operator's listing). */
  listOfGroup(groupId: number): Promise<InvitationRow[]>;
  /**
   * Every invitation for this address whose end is after `now`, oldest first; not those that hand
   * over a placeholder, which only their link takes.
   */
  listLiveForEmail(email: string, now: number): Promise<InvitationRow[]>;
  /** Withdraws every invitation that hands over this placeholder (a newer one replaces them, or it was claimed). */
  removeClaimsOf(placeholderId: number): Promise<void>;
  /** A new secret and end (sending it again). */
  renew(memberId: number, change: { tokenHash: string; expiresAt: number; at: number }): Promise<void>;
  /** The invitation becomes the user's membership (an ordinary member, notified). */
  accept(memberId: number, userId: number, at: number): Promise<void>;
  /** Records that the invitation's message was queued at `at`. */
  markSent(memberId: number, at: number): Promise<void>;
}

function selectInvitations(db: Kysely<Database>) {
  return db
    .selectFrom("memberships")
    .innerJoin("groups", "groups.id", "memberships.group_id")
    .leftJoin("users as claimed", "claimed.id", "memberships.claim_user_id")
    .select([
      "memberships.id as memberId",
      "memberships.group_id as groupId",
      "groups.name as groupName",
      "groups.summary as groupSummary",
      "memberships.invite_email as email",
      "memberships.invite_expires_at as expiresAt",
      "memberships.invite_token_hash as tokenHash",
      "memberships.invite_sent_at as sentAt",
      "memberships.claim_user_id as claimUserId",
      "claimed.name as claimName",
    ])
    .where("memberships.status", "=", "INVITE");
}

/** Invitation queries. */
export function invitationRepo(db: Kysely<Database>): InvitationRepo {
  return {
    async findForEmail(groupId, email) {
      const row = await db
        .selectFrom("memberships")
        .select("id")
        .where("group_id", "=", groupId)
        .where("status", "=", "INVITE")
        .where("invite_email", "=", email)
        .executeTakeFirst();
      return row?.id;
    },
    async find(memberId) {
      const row = await selectInvitations(db).where("memberships.id", "=", memberId).executeTakeFirst();
      return row && { ...row, email: row.email ?? "" };
    },
    async listOfGroup(groupId) {
      const rows = await selectInvitations(db)
        .where("memberships.group_id", "=", groupId)
        .orderBy("memberships.id")
        .execute();
      return rows.map((row) => ({ ...row, email: row.email ?? "" }));
    },
    async listLiveForEmail(email, now) {
      const rows = await selectInvitations(db)
        .where("memberships.invite_email", "=", email)
        .where("memberships.claim_user_id", "is", null)
        .where((eb) =>
          eb.or([eb("memberships.invite_expires_at", "is", null), eb("memberships.invite_expires_at", ">", now)]),
        )
        .orderBy("memberships.id")
        .execute();
      return rows.map((row) => ({ ...row, email: row.email ?? "" }));
    },
    async renew(memberId, change) {
      await db
        .updateTable("memberships")
        .set({ invite_token_hash: change.tokenHash, invite_expires_at: change.expiresAt, updated_at: change.at })
        .where("id", "=", memberId)
        .where("status", "=", "INVITE")
        .execute();
    },
    async accept(memberId, userId, at) {
      await db
        .updateTable("memberships")
        .set({
          status: "JOIN",
          user_id: userId,
          manager: 0,
          notify: 1,
          invite_email: null,
          invite_label: null,
          invite_expires_at: null,
          invite_token_hash: null,
          invite_sent_at: null,
          created_at: at,
          updated_at: at,
        })
        .where("id", "=", memberId)
        .where("status", "=", "INVITE")
        .execute();
    },
    async removeClaimsOf(placeholderId) {
      await db
        .deleteFrom("memberships")
        .where("status", "=", "INVITE")
        .where("claim_user_id", "=", placeholderId)
        .execute();
    },
    async markSent(memberId, at) {
      await db
        .updateTable("memberships")
        .set({ invite_sent_at: at })
        .where("id", "=", memberId)
        .where("status", "=", "INVITE")
        .execute();
    },
  };
}
