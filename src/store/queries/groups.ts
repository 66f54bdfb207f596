import type { Kysely, Selectable } from "kysely";
import type { Group, Membership } from "../../domain/group.js";
import type { Member, MemberStatus } from "../../domain/member.js";
import type { Database, GroupsTable, MembershipsTable } from "../schema.js";
import { prepared } from "./prepared.js";
import type { PageWindow } from "../page-window.js";
import type { RowOf } from "./rows.js";

/** Groups. */
export interface GroupRepo {
  insert(group: { name: string; summary: string; createdAt: number }): Promise<Group>;
  findById(id: number): Promise<Group | undefined>;
  /** Renames and describes a group. */
  update(id: number, change: { name: string; summary: string; at: number }): Promise<void>;
  /** Whether members, not only managers, manage the group's folders. */
  setMembersManageFolders(id: number, allowed: boolean): Promise<void>;
  /** Groups the user has joined, newest first. */
  listJoined(userId: number, page: PageWindow): Promise<Group[]>;
  /** Every group, oldest first (operators' listing). */
  listAll(): Promise<Group[]>;
}

/** Memberships and invitations. */
export interface MembershipRepo {
  insertJoined(member: {
    groupId: number;
    userId: number;
    manager: boolean;
    notify: boolean;
    createdAt: number;
  }): Promise<Membership>;
  insertInvite(invite: {
    groupId: number;
    email: string;
    label: string;
    expiresAt: number | null;
    /** The SHA-256 of the invitation link's secret (the web interface); none from the command line and seeds. */
    tokenHash?: string;
    /** The placeholder account the invitation hands over to its recipient (migration 0046). */
    claimUserId?: number;
    createdAt: number;
  }): Promise<number>;
  findJoined(groupId: number, userId: number): Promise<Membership | undefined>;
  /** Every group the user has joined, by group id. */
  listJoinedOfUser(userId: number): Promise<Membership[]>;
  /** A member or invitation by member id, with the user's name and readings. */
  findMember(id: number): Promise<Member | undefined>;
  /** A page of a group's members of one status, newest first (updated, then id). */
  listMembers(groupId: number, status: MemberStatus, page: PageWindow): Promise<Member[]>;
  countMembers(groupId: number, status: MemberStatus): Promise<number>;
  /** Every joined member of a group, in the order they joined (the member list's download). */
  listJoinedForExport(groupId: number): Promise<JoinedMemberRow[]>;
  countManagers(groupId: number): Promise<number>;
  update(id: number, change: { manager?: boolean; notify?: boolean; at: number }): Promise<void>;
  remove(id: number): Promise<void>;
}

/** A joined member as the member list's download writes it. */
export interface JoinedMemberRow {
  readonly userId: number;
  readonly name: string;
  readonly familyKana: string;
  readonly givenKana: string;
  readonly email: string;
  /** A disabled account (an imported placeholder among them) is no one to write to. */
  readonly disabled: boolean;
  readonly manager: boolean;
  readonly joinedAt: number;
}

function toGroup(row: Selectable<GroupsTable>): Group {
  return {
    id: row.id,
    name: row.name,
    summary: row.summary,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    archivedAt: row.archived_at,
    membersManageFolders: row.members_manage_folders === 1,
  };
}

function toMembership(row: Selectable<MembershipsTable>): Membership {
  return {
    id: row.id,
    groupId: row.group_id,
    userId: row.user_id ?? 0,
    manager: row.manager === 1,
    notify: row.notify === 1,
    joinedAt: row.created_at,
  };
}

// The two reads before every read of group data (services/group/group-access.ts), kept compiled.
const findGroup = prepared(["id"], (db, values: { id: number }) =>
  db.selectFrom("groups").selectAll().where("id", "=", values.id),
);
const findJoinedMembership = prepared(["groupId", "userId"], (db, values: { groupId: number; userId: number }) =>
  db
    .selectFrom("memberships")
    .selectAll()
    .where("group_id", "=", values.groupId)
    .where("user_id", "=", values.userId)
    .where("status", "=", "JOIN"),
);

/** Groups queries. */
export function groupRepo(db: Kysely<Database>): GroupRepo {
  return {
    async insert(group) {
      const row = await db
        .insertInto("groups")
        .values({ name: group.name, summary: group.summary, created_at: group.createdAt, updated_at: group.createdAt })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toGroup(row);
    },
    async findById(id) {
      const [row] = await findGroup(db, { id });
      return row && toGroup(row);
    },
    async update(id, change) {
      await db
        .updateTable("groups")
        .set({ name: change.name, summary: change.summary, updated_at: change.at })
        .where("id", "=", id)
        .execute();
    },
    async setMembersManageFolders(id, allowed) {
      await db
        .updateTable("groups")
        .set({ members_manage_folders: allowed ? 1 : 0 })
        .where("id", "=", id)
        .execute();
    },
    async listJoined(userId, page) {
      const rows = await db
        .selectFrom("groups")
        .innerJoin("memberships", "memberships.group_id", "groups.id")
        .selectAll("groups")
        .where("memberships.user_id", "=", userId)
        .where("memberships.status", "=", "JOIN")
        .orderBy("groups.updated_at", "desc")
        .orderBy("groups.id", "desc")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map(toGroup);
    },
    async listAll() {
      const rows = await db.selectFrom("groups").selectAll().orderBy("id").execute();
      return rows.map(toGroup);
    },
  };
}

/** Memberships queries. */
export function membershipRepo(db: Kysely<Database>): MembershipRepo {
  return {
    async insertJoined(member) {
      const row = await db
        .insertInto("memberships")
        .values({
          group_id: member.groupId,
          user_id: member.userId,
          status: "JOIN",
          manager: member.manager ? 1 : 0,
          notify: member.notify ? 1 : 0,
          invite_email: null,
          invite_label: null,
          invite_expires_at: null,
          created_at: member.createdAt,
          updated_at: member.createdAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toMembership(row);
    },
    async insertInvite(invite) {
      const row = await db
        .insertInto("memberships")
        .values({
          group_id: invite.groupId,
          user_id: null,
          status: "INVITE",
          manager: 0,
          notify: 1,
          invite_email: invite.email.toLowerCase(),
          invite_label: invite.label,
          invite_expires_at: invite.expiresAt,
          invite_token_hash: invite.tokenHash ?? null,
          claim_user_id: invite.claimUserId ?? null,
          created_at: invite.createdAt,
          updated_at: invite.createdAt,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async listJoinedOfUser(userId) {
      const rows = await db
        .selectFrom("memberships")
        .selectAll()
        .where("user_id", "=", userId)
        .where("status", "=", "JOIN")
        .orderBy("group_id")
        .execute();
      return rows.map(toMembership);
    },
    async findJoined(groupId, userId) {
      const [row] = await findJoinedMembership(db, { groupId, userId });
      return row && toMembership(row);
    },
    ...memberQueries(db),
  };
}

/** Members with their user's name and readings (invitations have no user). */
function selectMembers(db: Kysely<Database>) {
  return db
    .selectFrom("memberships")
    .leftJoin("users", "users.id", "memberships.user_id")
    .selectAll("memberships")
    .select([
      "users.name as user_name",
      "users.family_kana",
      "users.given_kana",
      "users.email as user_email",
      "users.placeholder_at",
    ]);
}

function toMember(row: RowOf<typeof selectMembers>): Member {
  return {
    id: row.id,
    groupId: row.group_id,
    status: row.status,
    userId: row.user_id,
    name: row.user_name ?? row.invite_label ?? "",
    familyKana: row.family_kana ?? "",
    givenKana: row.given_kana ?? "",
    manager: row.manager === 1,
    notify: row.notify === 1,
    inviteEmail: row.invite_email,
    inviteExpiresAt: row.invite_expires_at,
    inviteSentAt: row.invite_sent_at,
    placeholderEmail: row.placeholder_at === null ? null : row.user_email,
    claimUserId: row.claim_user_id,
    updatedAt: row.updated_at,
  };
}

function memberQueries(
  db: Kysely<Database>,
): Omit<MembershipRepo, "insertJoined" | "insertInvite" | "findJoined" | "listJoinedOfUser"> {
  return {
    async findMember(id) {
      const row = await selectMembers(db).where("memberships.id", "=", id).executeTakeFirst();
      return row && toMember(row);
    },
    async listMembers(groupId, status, page) {
      const rows = await selectMembers(db)
        .where("memberships.group_id", "=", groupId)
        .where("memberships.status", "=", status)
        .orderBy("memberships.updated_at", "desc")
        .orderBy("memberships.id", "desc")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map(toMember);
    },
    async countMembers(groupId, status) {
      const row = await db
        .selectFrom("memberships")
        .select((eb) => eb.fn.countAll().as("count"))
        .where("group_id", "=", groupId)
        .where("status", "=", status)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    async listJoinedForExport(groupId) {
      const rows = await db
        .selectFrom("memberships")
        .innerJoin("users", "users.id", "memberships.user_id")
        .select([
          "users.id as user_id",
          "users.name",
          "users.family_kana",
          "users.given_kana",
          "users.email",
          "users.disabled_at",
          "memberships.manager",
          "memberships.created_at",
        ])
        .where("memberships.group_id", "=", groupId)
        .where("memberships.status", "=", "JOIN")
        .orderBy("memberships.created_at")
        .orderBy("memberships.id")
        .execute();
      return rows.map((row) => ({
        userId: row.user_id,
        name: row.name,
        familyKana: row.family_kana,
        givenKana: row.given_kana,
        email: row.email,
        disabled: row.disabled_at !== null,
        manager: row.manager === 1,
        joinedAt: row.created_at,
      }));
    },
    async countManagers(groupId) {
      const row = await db
        .selectFrom("memberships")
        .select((eb) => eb.fn.countAll().as("count"))
        .where("group_id", "=", groupId)
        .where("status", "=", "JOIN")
        .where("manager", "=", 1)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    async update(id, change) {
      const set: { manager?: number; notify?: number; updated_at: number } = { updated_at: change.at };
      if (change.manager !== undefined) set.manager = change.manager ? 1 : 0;
      if (change.notify !== undefined) set.notify = change.notify ? 1 : 0;
      await db.updateTable("memberships").set(set).where("id", "=", id).execute();
    },
    async remove(id) {
      await db.deleteFrom("memberships").where("id", "=", id).execute();
    },
  };
}
