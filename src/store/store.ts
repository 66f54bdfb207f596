import type { AccessLevel, Application } from "../domain/access.js";
import type { Attachment } from "../domain/attachment.js";
import type { Comment } from "../domain/comment.js";
import type { Folder, FolderArea, FolderFilter } from "../domain/folder.js";
import type { Group, Membership } from "../domain/group.js";
import type { CabinetFile, FileVersion } from "../domain/file.js";
import type { ContentRef } from "../domain/item-id.js";
import type { Member, MemberStatus } from "../domain/member.js";
import type { Task, TaskFilter, TaskPriority, TaskStatus } from "../domain/task.js";
import type { ItemKey, LikeSummary, Liker } from "../domain/reaction.js";
import type { EditLease, Topic } from "../domain/topic.js";
import type { ViewVersion } from "./change-tracking.js";
import type { LoginFailureRepo } from "./login-failure-repo.js";
import type {
  CommentReadRepo,
  LikeNotificationRepo,
  NotificationCountRepo,
  NotificationRepo,
} from "./notification-repos.js";
import type { Session, TokenOrigin, UserToken } from "../domain/session.js";
import type { User } from "../domain/user.js";

/**
 * The persistence boundary. Services see only these interfaces and domain types; each engine
 * (store/sqlite, store/postgres) provides them with the same shared Kysely queries (store/queries).
 */
export interface Store {
  /** Runs `work` in one transaction: all of it commits, or none of it does. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs reads without opening a transaction (cheaper for single-statement reads). */
  read<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Applies pending migrations. */
  migrate(): Promise<void>;
  /** True when the database holds no users yet (first start). */
  isEmpty(): Promise<boolean>;
  /** The change versions of what the user can see, in one query (store/change-tracking.ts). */
  viewVersion(userId: number): Promise<ViewVersion>;
  /** The connection pool's state now, for the metrics (PostgreSQL; SQLite has one connection, no pool). */
  readonly pool?: () => PoolState;
  close(): Promise<void>;
}

/** A connection pool's connections and the requests waiting for one. */
export interface PoolState {
  readonly total: number;
  readonly idle: number;
  readonly waiting: number;
}

/** The repositories available inside a transaction (or a plain read). */
export interface Tx {
  readonly users: UserRepo;
  readonly apps: AppRepo;
  readonly tokens: TokenRepo;
  readonly sessions: SessionRepo;
  readonly groups: GroupRepo;
  readonly memberships: MembershipRepo;
  readonly folders: FolderRepo;
  readonly topics: TopicRepo;
  readonly comments: CommentRepo;
  readonly leases: LeaseRepo;
  readonly dataset: DatasetRepo;
  readonly tasks: TaskRepo;
  readonly files: FileRepo;
  readonly nonces: NonceRepo;
  readonly temporaryCredentials: TemporaryCredentialRepo;
  readonly attachments: AttachmentRepo;
  readonly likes: LikeRepo;
  readonly favorites: FavoriteRepo;
  readonly commentReads: CommentReadRepo;
  readonly loginFailures: LoginFailureRepo;
  readonly notifications: NotificationRepo;
  readonly likeNotifications: LikeNotificationRepo;
  readonly notificationCounts: NotificationCountRepo;
}

/** Offset paging as the interface defines it (`start-index`, `max-results`). */
export interface Page {
  readonly offset: number;
  readonly limit: number;
}

/** Users. */
export interface UserRepo {
  insert(user: Omit<User, "id"> & { passwordHash: string; createdAt: number }): Promise<User>;
  findById(id: number): Promise<User | undefined>;
  /** With the password hash and whether the account is disabled, for sign-in only. */
  findCredentialsByEmail(email: string): Promise<(User & { passwordHash: string; disabled: boolean }) | undefined>;
  findByEmail(email: string): Promise<User | undefined>;
  list(): Promise<User[]>;
  /** Changes what is given of an account (an operator's command); false when no user has the id. */
  update(id: number, changes: UserChanges): Promise<boolean>;
  /** Whether the account is disabled; undefined when no user has the id. */
  isDisabled(id: number): Promise<boolean | undefined>;
  /** The ids of every disabled account, in id order. */
  listDisabledIds(): Promise<number[]>;
}

/** What an operator may change of an account. */
export interface UserChanges {
  readonly name?: string;
  readonly familyKana?: string;
  readonly givenKana?: string;
  readonly passwordHash?: string;
  /** A time disables the account, null enables it. */
  readonly disabledAt?: number | null;
}

/** Registered applications. */
export interface AppRepo {
  insert(app: {
    name: string;
    consumerKey: string;
    consumerSecret: string;
    accessLevel: AccessLevel;
    createdAt: number;
  }): Promise<Application>;
  findByConsumerKey(key: string): Promise<(Application & { consumerSecret: string }) | undefined>;
  list(): Promise<Application[]>;
  /** Removes the application and every token issued through it; false when unknown. */
  remove(consumerKey: string): Promise<boolean>;
}

/** A token credential as the authenticator needs it. */
export interface TokenGrant {
  readonly tokenId: number;
  readonly secret: string;
  readonly user: User;
  readonly app: Application & { consumerSecret: string };
}

/** A token as an operator lists it (never the token itself). */
export interface TokenSummary {
  readonly id: number;
  readonly userEmail: string;
  readonly appConsumerKey: string;
  readonly label: string;
  readonly createdAt: number;
  readonly revokedAt: number | null;
}

/** Token credentials / personal tokens. */
export interface TokenRepo {
  /** `origin` defaults to `personal`. */
  insert(token: {
    userId: number;
    appId: number;
    tokenHash: string;
    secret: string;
    label: string;
    origin?: TokenOrigin;
    createdAt: number;
  }): Promise<number>;
  /** The live (not revoked) token with this hash. */
  findLive(tokenHash: string): Promise<TokenGrant | undefined>;
  list(): Promise<TokenSummary[]>;
  /** Marks the token revoked; false when unknown or already revoked. */
  revoke(id: number, at: number): Promise<boolean>;
  /** One user's live tokens, oldest first. */
  listLiveOfUser(userId: number): Promise<UserToken[]>;
  /** Revokes one of the user's live tokens of this origin; false when the user has no such token. */
  revokeOfUser(userId: number, id: number, origin: TokenOrigin, at: number): Promise<boolean>;
  /** Revokes every live token of this origin the user holds for the application; returns how many. */
  revokeAppOfUser(userId: number, appId: number, origin: TokenOrigin, at: number): Promise<number>;
}

/** Web sign-in sessions, shared by every server process through the database. */
export interface SessionRepo {
  insert(session: {
    tokenHash: string;
    userId: number;
    csrf: string;
    createdAt: number;
    expiresAt: number;
  }): Promise<void>;
  /** The session with this token hash, unless it has expired. */
  findLive(tokenHash: string, now: number): Promise<Session | undefined>;
  extend(id: number, expiresAt: number): Promise<void>;
  remove(tokenHash: string): Promise<void>;
  /** Ends every session of the user (new password, disabled account); returns how many. */
  removeOfUser(userId: number): Promise<number>;
  /** Deletes expired sessions; returns how many. */
  removeExpired(now: number): Promise<number>;
}

/** Groups. */
export interface GroupRepo {
  insert(group: { name: string; summary: string; createdAt: number }): Promise<Group>;
  findById(id: number): Promise<Group | undefined>;
  /** Groups the user has joined, newest first. */
  listJoined(userId: number, page: Page): Promise<Group[]>;
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
    createdAt: number;
  }): Promise<number>;
  findJoined(groupId: number, userId: number): Promise<Membership | undefined>;
  /** Every group the user has joined, by group id. */
  listJoinedOfUser(userId: number): Promise<Membership[]>;
  /** A member or invitation by member id, with the user's name and readings. */
  findMember(id: number): Promise<Member | undefined>;
  /** A page of a group's members of one status, newest first (updated, then id). */
  listMembers(groupId: number, status: MemberStatus, page: Page): Promise<Member[]>;
  countMembers(groupId: number, status: MemberStatus): Promise<number>;
  countManagers(groupId: number): Promise<number>;
  update(id: number, change: { manager?: boolean; notify?: boolean; at: number }): Promise<void>;
  remove(id: number): Promise<void>;
}

/** Folders of a group's areas. */
export interface FolderRepo {
  insert(folder: { groupId: number; area: FolderArea; name: string; createdAt: number }): Promise<Folder>;
  findById(id: number): Promise<Folder | undefined>;
  list(groupId: number, area: FolderArea, page: Page): Promise<Folder[]>;
}

/** Fields of a new topic. */
export interface NewTopic {
  readonly groupId: number;
  readonly title: string;
  readonly body: string;
  readonly authorId: number;
  readonly folderId: number | null;
  readonly allowEdit: boolean;
  readonly fastNotify: boolean;
  readonly trashed: boolean;
  readonly at: number;
}

/** Board topics. */
export interface TopicRepo {
  insert(topic: NewTopic): Promise<Topic>;
  findById(id: number): Promise<Topic | undefined>;
  /** A page of a group's topics, newest first (updated, then id). */
  list(groupId: number, filter: FolderFilter, page: Page): Promise<Topic[]>;
  update(id: number, change: { title: string; body: string; at: number }): Promise<void>;
  remove(id: number): Promise<void>;
}

/** Comments on any content item. */
export interface CommentRepo {
  /** Hands out the parent's next comment number atomically (safe under concurrent writers). */
  nextNumber(parent: ContentRef): Promise<number>;
  insert(comment: {
    parent: ContentRef;
    number: number;
    authorId: number;
    body: string;
    replyTo: number | null;
    at: number;
  }): Promise<Comment>;
  find(parent: ContentRef, number: number): Promise<Comment | undefined>;
  findById(id: number): Promise<Comment | undefined>;
  /** A page of one parent's comments, newest first (by number). */
  page(parent: ContentRef, filter: CommentFilter, page: Page): Promise<Comment[]>;
  /** How many of the parent's comments pass the filter. */
  count(parent: ContentRef, filter: CommentFilter): Promise<number>;
  /** Every comment of each parent, newest first (the embedded sub-feed has no paging). */
  listAll(parents: readonly ContentRef[]): Promise<Comment[]>;
  remove(id: number): Promise<void>;
  /** Removes a parent's comments and its counter; returns the removed comment ids. */
  removeAllOf(parent: ContentRef): Promise<number[]>;
}

/** Topic edit leases. */
export interface LeaseRepo {
  find(topicId: number): Promise<EditLease | undefined>;
  put(lease: { topicId: number; userId: number; since: number; until: number }): Promise<void>;
  remove(topicId: number): Promise<void>;
}

/** The shape of a synthetic dataset (`kairan generate`): every number, and the seed. */
export interface DatasetPlan {
  readonly seed: number;
  readonly users: number;
  readonly groups: number;
  /** Members of group 1, users 1..N. */
  readonly bigGroupMembers: number;
  /** Members of every other group. */
  readonly membersPerGroup: number;
  readonly topics: number;
  /** Topics 1..N are in group 1; the rest are spread over the other groups. */
  readonly bigGroupTopics: number;
  readonly comments: number;
  /** Tasks, spread round-robin over every group (task i in group (i - 1) % groups + 1). */
  readonly tasks: number;
  /**
   * Every member of a group is notified of the group's newest N topics (with the comments on them)
   * and newest N tasks that they did not write; about half of those notifications are confirmed.
   */
  readonly notificationTopics: number;
  /** Epoch ms: topic i is published and updated at startAt + i seconds. */
  readonly startAt: number;
}

/** Set-based inserts of a synthetic dataset into an empty database (benchmarks). */
export interface DatasetRepo {
  insertUsers(plan: DatasetPlan, passwordHash: string, at: number): Promise<void>;
  insertGroups(plan: DatasetPlan, at: number): Promise<void>;
  insertMemberships(plan: DatasetPlan, at: number): Promise<void>;
  /** Topics number from..to (inclusive). */
  insertTopics(plan: DatasetPlan, from: number, to: number): Promise<void>;
  /** Comments number from..to (inclusive); the topics must exist. */
  insertComments(plan: DatasetPlan, from: number, to: number): Promise<void>;
  /** Tasks number from..to (inclusive). */
  insertTasks(plan: DatasetPlan, from: number, to: number): Promise<void>;
  /** Counters as if every comment had been added one by one. */
  insertCommentCounters(): Promise<void>;
  /** Notifications (and the comment confirmations of the confirmed ones); topics, comments, counters and tasks must exist. */
  insertNotifications(plan: DatasetPlan): Promise<void>;
  insertTokens(
    rows: readonly { userId: number; appId: number; tokenHash: string; secret: string; createdAt: number }[],
  ): Promise<void>;
}

/** Fields of a new task; the store numbers it within its group. */
export interface NewTask {
  readonly groupId: number;
  readonly title: string;
  readonly body: string;
  readonly authorId: number;
  readonly assigneeId: number | null;
  readonly dueAt: number | null;
  readonly allDay: boolean;
  readonly priority: TaskPriority;
  readonly status: TaskStatus;
  readonly folderId: number | null;
  readonly trashed: boolean;
  readonly at: number;
}

/** A change to a task: only the fields given are written. */
export type TaskChange = Partial<Omit<NewTask, "groupId" | "authorId" | "at">> & { readonly at: number };

/** Group tasks. */
export interface TaskRepo {
  /** Inserts with the group's next sequence number (unique per group, never reused). */
  insert(task: NewTask): Promise<Task>;
  findById(id: number): Promise<Task | undefined>;
  /** A page of a group's tasks, newest first (updated, then id). */
  list(groupId: number, folder: FolderFilter, filter: TaskFilter, page: Page): Promise<Task[]>;
  update(id: number, change: TaskChange): Promise<void>;
}

/** Fields of a new file version; the store numbers it and fills in the author's name. */
export type NewFileVersion = Omit<FileVersion, "fileId" | "number" | "authorName" | "createdAt"> & {
  readonly at: number;
};

/** Shared-folder files and their versions. */
export interface FileRepo {
  insert(
    file: { groupId: number; title: string; memo: string; authorId: number; folderId: number | null; trashed: boolean },
    version: NewFileVersion,
  ): Promise<CabinetFile>;
  /** Adds the next version and makes it current. */
  addVersion(fileId: number, version: NewFileVersion): Promise<CabinetFile>;
  findById(id: number): Promise<CabinetFile | undefined>;
  findVersion(fileId: number, number: number): Promise<FileVersion | undefined>;
  /** A page of a group's files, newest first (updated, then id). */
  list(groupId: number, filter: FolderFilter, page: Page): Promise<CabinetFile[]>;
  /** The newest `perFile` versions of each file, newest first. */
  listHistories(files: readonly CabinetFile[], perFile: number): Promise<FileVersion[]>;
  /** The group's comment attachments (the ATTACH folder). */
  listAttachmentsOfGroup(groupId: number, page: Page): Promise<CabinetFile[]>;
  update(id: number, change: { folderId?: number | null; trashed?: boolean; at: number }): Promise<void>;
}

/** One use of an OAuth nonce; `tokenHash` is "" when the request carries no token. */
export interface NonceUse {
  readonly consumerKey: string;
  readonly tokenHash: string;
  readonly nonce: string;
  readonly timestamp: number;
  /** Epoch ms after which the timestamp check alone refuses a replay, so the row can go. */
  readonly expiresAt: number;
}

/** OAuth nonces: shared by every server process through the database. */
export interface NonceRepo {
  /** Records the nonce atomically; false when this (consumer, token, nonce, timestamp) was seen. */
  claim(use: NonceUse): Promise<boolean>;
  /** Deletes nonces whose window has passed; returns how many. */
  removeExpired(now: number): Promise<number>;
}

/** An OAuth temporary credential (request token) with the application it was issued to. */
export interface TemporaryCredential {
  readonly id: number;
  readonly secret: string;
  readonly app: Application;
  /** An absolute http(s) URL, or "oob". */
  readonly callback: string;
  readonly csrf: string;
  readonly status: "pending" | "approved" | "denied";
  readonly userId: number | null;
  readonly verifier: string | null;
  readonly expiresAt: number;
}

/** The user's answer on the authorize page. */
export type AuthorizationDecision =
  { readonly status: "approved"; readonly userId: number; readonly verifier: string } | { readonly status: "denied" };

/** OAuth temporary credentials: short-lived and single-use. */
export interface TemporaryCredentialRepo {
  insert(credential: {
    tokenHash: string;
    secret: string;
    appId: number;
    callback: string;
    csrf: string;
    createdAt: number;
    expiresAt: number;
  }): Promise<void>;
  /** The credential with this token hash, unless it has expired. */
  findLive(tokenHash: string, now: number): Promise<TemporaryCredential | undefined>;
  /** Records the decision on a pending credential; false when it was no longer pending. */
  decide(id: number, decision: AuthorizationDecision): Promise<boolean>;
  /** Deletes the credential as it is exchanged; false when another exchange got there first. */
  consume(id: number): Promise<boolean>;
  /** Deletes expired credentials; returns how many. */
  removeExpired(now: number): Promise<number>;
}

/** Which of a parent's comments a read keeps. */
export interface CommentFilter {
  /** Only comments by others than `userId` written after `after` (every one when `after` is null). */
  readonly unconfirmedBy?: { readonly userId: number; readonly after: number | null };
}

/** Files attached to comments (metadata; bytes are in the blob store). */
export interface AttachmentRepo {
  insert(attachment: Omit<Attachment, "id"> & { groupId: number; at: number }): Promise<Attachment>;
  /** The attachments of these comments, by comment then position. */
  listOf(commentIds: readonly number[]): Promise<Attachment[]>;
  find(commentId: number, position: number): Promise<Attachment | undefined>;
  /** Removes the attachments of these comments; returns their blob keys, to delete after commit. */
  removeOf(commentIds: readonly number[]): Promise<string[]>;
}

/** Likes: one row per (user, item). */
export interface LikeRepo {
  /** Idempotent: liking twice leaves one like; true when this call added it. */
  add(userId: number, item: ItemKey, groupId: number, at: number): Promise<boolean>;
  /** True when there was a like to remove. */
  remove(userId: number, item: ItemKey): Promise<boolean>;
  /** Who liked the item, first liker first. */
  likers(item: ItemKey): Promise<Liker[]>;
  /** Who liked each of these items of one kind, first liker first (absent = nobody). */
  likersOf(kind: ItemKey["kind"], ids: readonly number[]): Promise<Map<number, Liker[]>>;
  /** Count and the viewer's own like, for each of these items of one kind (absent = no likes). */
  summarize(kind: ItemKey["kind"], ids: readonly number[], viewerId: number): Promise<Map<number, LikeSummary>>;
  /** Removes every like of these items (they are being deleted). */
  removeItems(kind: ItemKey["kind"], ids: readonly number[]): Promise<void>;
}

/** A favorite as stored. */
export interface FavoriteRow {
  readonly item: ItemKey;
  readonly groupId: number;
  readonly createdAt: number;
}

/** Favorites: one row per (user, item). */
export interface FavoriteRepo {
  /** Idempotent: favoriting twice leaves one favorite; true when this call added it. */
  add(userId: number, item: ItemKey, groupId: number, at: number): Promise<boolean>;
  /** True when there was a favorite to remove. */
  remove(userId: number, item: ItemKey): Promise<boolean>;
  find(userId: number, item: ItemKey): Promise<FavoriteRow | undefined>;
  /** The user's favorites in groups the user has joined, newest first. */
  list(userId: number, page: Page): Promise<FavoriteRow[]>;
  /** Which of these items of one kind the user has favorited. */
  setOf(userId: number, kind: ItemKey["kind"], ids: readonly number[]): Promise<Set<number>>;
  /** Removes every favorite of these items (they are being deleted). */
  removeItems(kind: ItemKey["kind"], ids: readonly number[]): Promise<void>;
}

export type { ViewVersion } from "./change-tracking.js";
export type { LoginAttemptCount, LoginFailureRepo } from "./login-failure-repo.js";
export type {
  CommentReadRepo,
  LikeNotificationRepo,
  NotificationCountRepo,
  NotificationRepo,
} from "./notification-repos.js";
