// The people and credentials the authorization matrix calls with, around one "secret" group whose
// items every other caller must neither reach nor learn anything about.
import { randomBytes } from "node:crypto";
import { hashToken } from "../../src/auth/token.js";
import { ACCESS_LEVELS, type AccessLevel } from "../../src/domain/access.js";
import type { TokenOrigin } from "../../src/domain/session.js";
import type { User } from "../../src/domain/user.js";
import type { TestUser } from "../support/factories.js";
import { CLIENT_NS, request } from "../support/http.js";
import { postMultipart } from "../support/multipart.js";
import { oauth1a } from "../support/oauth.js";
import type { TestServer } from "../support/server.js";
import { type GroupItems, seedGroup, seedPersonalTask } from "../support/world.js";

/** Credentials as a client presents them. */
export type Credentials =
  | { readonly kind: "none" }
  | { readonly kind: "bearer"; readonly token: string }
  | {
      readonly kind: "oauth";
      readonly consumer: { key: string; secret: string };
      readonly token: { key: string; secret: string };
    };

/** Who calls, and what the matrix expects of the answer. */
export interface Caller {
  readonly name: string;
  readonly credentials: Credentials;
  /**
   * `unauthenticated`: 401 with this `<error>` code or `oauth_problem`; `outsider`: not a member
   * of the secret group (403 GROUP_NOT_JOINED, or their own data only); `member`: the right
   * group, at `level`.
   */
  readonly role:
    | { readonly kind: "unauthenticated"; readonly answer: string }
    | { readonly kind: "outsider" }
    | { readonly kind: "member"; readonly level: AccessLevel };
}

/** The secret group, its member (one token per level) and every caller. */
export interface MatrixWorld {
  readonly server: TestServer;
  readonly secret: GroupItems;
  readonly owner: TestUser;
  readonly member: User;
  /** The member's Bearer token per application level. */
  readonly memberTokens: Readonly<Record<AccessLevel, string>>;
  /** Callers that must be refused whatever the operation (or see only their own data). */
  readonly strangers: readonly Caller[];
  /** Every string and id of the secret group that no one else may see. */
  readonly secrets: readonly string[];
  readonly secretIds: readonly string[];
  /**
   * The secret chat room of the owner and the member (THEME "<tag> room", message "<tag> chat"),
   * and the id of a file on its second message.
   */
  readonly chat: { readonly roomId: number; readonly fileId: string };
  /** The member's personal event ("<tag> personal"), private to them. */
  readonly personalEventId: string;
  /** The member's personal task (`MYPAGE,1:<member>,TASK,1:n`, title "<tag> personal task"): theirs alone. */
  readonly personalTaskId: string;
}

/** A token of `user` through a new application of `level` (a personal one unless `origin` says); returns the token and its secret. */
export async function issueToken(
  server: TestServer,
  user: User,
  level: AccessLevel,
  origin: TokenOrigin = "personal",
): Promise<{ token: string; secret: string; consumer: { key: string; secret: string } }> {
  const consumer = await server.factories.app(level);
  const token = randomBytes(12).toString("hex");
  const secret = randomBytes(12).toString("hex");
  await server.store.transaction((tx) =>
    tx.tokens.insert({
      userId: user.id,
      appId: consumer.id,
      tokenHash: hashToken(token),
      secret,
      label: "",
      origin,
      createdAt: server.clock.now(),
    }),
  );
  return { token, secret, consumer };
}

/** Seeds the secret group (owner, member), the outsiders' own group, and every kind of caller. */
export async function seedMatrixWorld(server: TestServer, tag: string): Promise<MatrixWorld> {
  const f = server.factories;
  const owner = await f.user({ name: `${tag} Owner`, email: `${tag.toLowerCase()}-owner@example.com` });
  const member = await f.user({ name: `${tag} Member`, email: `${tag.toLowerCase()}-member@example.com` });
  const former = await f.user({ name: "Former Member" });
  const secret = await seedGroup(server, owner, [member, former], tag);
  const memberTokens = Object.fromEntries(
    await Promise.all(ACCESS_LEVELS.map(async (level) => [level, (await issueToken(server, member, level)).token])),
  ) as Record<AccessLevel, string>;

  // Outsiders: a member of another group (with its own items), an invitee who has not joined, and
  // a former member who favorited and liked the secret topic before being removed.
  const outsider = await f.user({ name: "Outsider" });
  await seedGroup(server, outsider, [], "Elsewhere");
  const invited = await f.user({ name: "Invitee" });
  await server.store.transaction((tx) =>
    tx.memberships.insertInvite({
      groupId: secret.group.id,
      email: invited.email,
      label: "Invitee (invited)",
      expiresAt: null,
      createdAt: server.clock.now(),
    }),
  );
  // The member's own favorite and like too: what their own lists show (and others' must not).
  for (const [path, token] of [
    ["star", former.token],
    ["good", former.token],
    ["star", member.token],
    ["good", member.token],
  ] as const) {
    const body = `<feed ${CLIENT_NS}><cbl:operation type="insert"/><entry><id>${secret.topicId}</id></entry></feed>`;
    const answer = await request(`${server.url}/api/${path}/V2`, { token, body });
    if (answer.status !== 200) throw new Error(`seeding a ${path}: ${answer.text}`);
  }
  // A topic naming the member, the former member (still joined now) and every outsider: only the
  // member may ever see it in their mention notifications.
  const mention = `<feed ${CLIENT_NS}><cbl:operation type="insert"/><entry><cbl:group id="${secret.groupPair}"/><title>${tag} mention</title><summary type="text">@"${tag} Member" @"Former Member" @Outsider @Invitee</summary></entry></feed>`;
  const mentioned = await request(`${server.url}/api/board/V2`, { token: owner.token, body: mention });
  if (mentioned.status !== 200) throw new Error(`seeding a mention: ${mentioned.text}`);
  const formerMembership = await server.store.read((tx) => tx.memberships.findJoined(secret.group.id, former.id));
  // Removed below the services, as data from before chat rooms followed membership: the rooms'
  // reads must refuse a former member by themselves.
  await server.store.transaction((tx) => tx.memberships.remove(formerMembership?.id ?? 0));

  // A member's token, revoked: it must be as dead as an unknown one, by Bearer and by OAuth.
  // The former member was in the secret room too: the room's rows refuse them as any stranger.
  const chat = await seedChatRoom(server, owner, [member, former], tag);
  const personalEventId = await seedPersonalEvent(server, member, tag);
  const personalTaskId = await seedPersonalTask(server, member, `${tag} personal task`);

  const revoked = await issueToken(server, member, "Z");
  const [summary] = (await server.store.read((tx) => tx.tokens.list())).filter(
    (t) => t.appConsumerKey === revoked.consumer.key,
  );
  await server.store.transaction((tx) => tx.tokens.revoke(summary?.id ?? 0, server.clock.now()));
  const valid = await issueToken(server, member, "Z");
  // Issued through OAuth: public by design, so never a Bearer token (docs/api.md "Authentication").
  const viaOAuth = await issueToken(server, member, "Z", "oauth");

  const strangers: Caller[] = [
    {
      name: "no credentials",
      credentials: { kind: "none" },
      role: { kind: "unauthenticated", answer: "AUTHENTICATION_REQUIRED" },
    },
    {
      name: "bad OAuth signature",
      credentials: {
        kind: "oauth",
        consumer: { key: valid.consumer.key, secret: "not-the-secret" },
        token: { key: valid.token, secret: valid.secret },
      },
      role: { kind: "unauthenticated", answer: "signature_invalid" },
    },
    {
      name: "revoked token (Bearer)",
      credentials: { kind: "bearer", token: revoked.token },
      role: { kind: "unauthenticated", answer: "TOKEN_REJECTED" },
    },
    {
      name: "revoked token (OAuth)",
      credentials: { kind: "oauth", consumer: revoked.consumer, token: { key: revoked.token, secret: revoked.secret } },
      role: { kind: "unauthenticated", answer: "token_rejected" },
    },
    {
      name: "OAuth-issued token (Bearer)",
      credentials: { kind: "bearer", token: viaOAuth.token },
      role: { kind: "unauthenticated", answer: "TOKEN_REJECTED" },
    },
    {
      name: "unknown token",
      credentials: { kind: "bearer", token: "no-such-token" },
      role: { kind: "unauthenticated", answer: "TOKEN_REJECTED" },
    },
    {
      name: "member of another group",
      credentials: { kind: "bearer", token: outsider.token },
      role: { kind: "outsider" },
    },
    { name: "invited, not joined", credentials: { kind: "bearer", token: invited.token }, role: { kind: "outsider" } },
    {
      name: "former member (of the group and its chat room)",
      credentials: { kind: "bearer", token: former.token },
      role: { kind: "outsider" },
    },
  ];
  return {
    server,
    secret,
    owner,
    member,
    memberTokens,
    strangers,
    chat,
    personalEventId,
    personalTaskId,
    secrets: [
      `${tag} personal task`,
      ...secret.secrets,
      `${tag} room`,
      `${tag} chat`,
      `${tag} Owner`,
      `${tag} Member`,
      `${tag} mention`,
      `${tag} personal`,
      `${tag.toLowerCase()}-owner@example.com`,
      `${tag.toLowerCase()}-member@example.com`,
    ],
    // Full ids only: a bare pair such as 1:3 is part of many other ids.
    secretIds: [
      secret.topicId,
      secret.commentId,
      secret.attachmentId,
      secret.taskId,
      secret.fileId,
      secret.eventId,
      `GROUP,${secret.groupPair}`,
      `MP_CHAT,1:${chat.roomId}`,
      personalEventId.slice(personalEventId.indexOf("MP_SCHEDULE")),
      personalTaskId,
    ],
  };
}

/** The owner's THEME room with the others, holding two messages by the owner, the second with a file. */
async function seedChatRoom(
  server: TestServer,
  owner: TestUser,
  others: readonly User[],
  tag: string,
): Promise<{ roomId: number; fileId: string }> {
  const roomId = await server.store.transaction(async (tx) => {
    const at = server.clock.now();
    const id = await tx.chat.createRoom({
      type: "THEME",
      title: `${tag} room`,
      creatorId: owner.id,
      directKey: null,
      at,
    });
    await tx.chat.addMembers(id, [owner.id, ...others.map((o) => o.id)], at);
    await tx.chat.push(id, owner.id, `${tag} chat`, at);
    return id;
  });
  const room = `MYPAGE,1:${owner.id},MP_CHAT,1:${roomId}`;
  const xml = `<feed ${CLIENT_NS}><cbl:operation type="insert"/><id>${room}</id><entry><summary type="text">${tag} chat</summary></entry></feed>`;
  const pushed = await postMultipart(`${server.url}/api/comet/mpChatPush/V2`, owner.token, [
    { name: "default", text: xml },
    { name: "file0", fileName: "secret.bin", size: 16 },
  ]);
  if (pushed.status !== 200) throw new Error(`seeding a chat file: ${pushed.text}`);
  return { roomId, fileId: `${room},COMMENT,2,ATTACHMENT,1` };
}

/** The member's personal event in the matrix's month (April 2026), with a memo; returns its id. */
async function seedPersonalEvent(server: TestServer, member: User, tag: string): Promise<string> {
  const start = Date.parse("2026-04-03T09:00:00Z");
  const id = await server.store.transaction((tx) =>
    tx.personalEvents.insert({
      ownerId: member.id,
      title: `${tag} personal`,
      memo: `${tag} personal memo`,
      start,
      end: start + 60 * 60 * 1000,
      allDay: false,
      timeZone: "UTC",
      rule: null,
      seriesEnd: start + 60 * 60 * 1000,
      exceptions: [],
      at: server.clock.now(),
    }),
  );
  return `MYPAGE,1:${member.id},MP_SCHEDULE,1:${id}`;
}

/** The member, at `level`. */
export function memberAt(world: MatrixWorld, level: AccessLevel): Caller {
  return {
    name: `member, application level ${level}`,
    credentials: { kind: "bearer", token: world.memberTokens[level] },
    role: { kind: "member", level },
  };
}

/** Headers that present `credentials` for this request (OAuth signed with the server's clock). */
export function authorization(
  world: MatrixWorld,
  credentials: Credentials,
  method: string,
  url: string,
): Record<string, string> {
  switch (credentials.kind) {
    case "none":
      return {};
    case "bearer":
      return { authorization: `Bearer ${credentials.token}` };
    case "oauth": {
      const client = oauth1a(credentials.consumer, world.server.clock);
      return { authorization: client.toHeader(client.authorize({ url, method }, credentials.token)).Authorization };
    }
  }
}
