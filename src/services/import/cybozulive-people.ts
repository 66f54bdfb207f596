// The people of an import made accounts of the group: each name resolved (domain/cybozulive/people.ts)
// to an account, or to a placeholder account made once and found again by its import key; every
// one of them joins the group, so that tasks can be assigned to them.
import { randomUUID } from "node:crypto";
import type { ImportProblem } from "../../domain/cybozulive/bundle.js";
import type { MemberRecord } from "../../domain/cybozulive/members.js";
import { type Resolution, normalName, resolvePeople } from "../../domain/cybozulive/people.js";
import { type AuditActor, membershipTarget, userTarget } from "../../domain/audit.js";
import { LIMITS } from "../../domain/limits.js";
import type { Clock } from "../../clock.js";
import type { Tx } from "../../store/store.js";
import { recordAudit } from "../audit/audit-log.js";
import { insertPlaceholderAccount } from "../account/account-write.js";
import { insertJoinedMember } from "../member/member-write.js";

/** The import keys of people (placeholders) start with this. */
const PERSON = "cybozulive:person:";

/** What making the people did. */
export interface PeopleResult {
  /** Account id of every normalised name. */
  readonly ids: ReadonlyMap<string, number>;
  readonly accountsCreated: number;
  readonly membersJoined: number;
}

const REASONS: Readonly<Record<Exclude<Resolution, { kind: "account" }>["reason"], [string, string]>> = {
  unmatched: ["UNMATCHED_PERSON", "is in no member list row and no account has the name"],
  ambiguous: ["AMBIGUOUS_PERSON", "stands for more than one person (member list or accounts)"],
  withdrawn: ["WITHDRAWN_PERSON", "had left the service"],
  "no-account": ["PERSON_WITHOUT_ACCOUNT", "has no account with the member list's address"],
};

/** Resolves and makes the people of the import, reporting every one who became a placeholder. */
export async function importPeople(
  tx: Tx,
  input: {
    groupId: number;
    names: ReadonlySet<string>;
    members: readonly MemberRecord[];
    keys: ReadonlyMap<string, number>;
    places: ReadonlyMap<string, { file: string; line: number }>;
    problems: ImportProblem[];
    /** Who the audit rows name: the operator at the command line, or the administrator in the browser. */
    actor: AuditActor;
  },
  clock: Clock,
): Promise<PeopleResult> {
  const ours = new Set([...input.keys].filter(([key]) => key.startsWith(PERSON)).map(([, id]) => id));
  // Placeholders an earlier run made are not matched by address or name: they are found by their key.
  const accounts = (await tx.users.list()).filter((user) => !ours.has(user.id));
  const resolved = resolvePeople([...input.names].sort(), input.members, accounts);
  const ids = new Map<string, number>();
  // Two names of one address (a member renamed between exports) share the placeholder made for it.
  const byEmail = new Map<string, number>();
  let accountsCreated = 0;
  for (const [name, resolution] of resolved) {
    if (resolution.kind === "account") {
      ids.set(name, resolution.userId);
      continue;
    }
    const [kind, why] = REASONS[resolution.reason];
    const place = input.places.get(name) ?? { file: "", line: 0 };
    input.problems.push({ ...place, column: 0, kind, message: `"${name}" ${why}: kept as a placeholder account` });
    const key = `${PERSON}${name}`;
    let id = input.keys.get(key) ?? (resolution.email === null ? undefined : byEmail.get(resolution.email));
    if (id === undefined) {
      id = await makePlaceholder(tx, { groupId: input.groupId, name, resolution, actor: input.actor }, clock);
      accountsCreated++;
    }
    if (!input.keys.has(key))
      await tx.importKeys.insert({ groupId: input.groupId, key, targetId: id, at: clock.now() });
    if (resolution.email !== null) byEmail.set(resolution.email, id);
    ids.set(name, id);
  }
  return {
    ids,
    accountsCreated,
    membersJoined: await joinAll(
      tx,
      { groupId: input.groupId, userIds: new Set(ids.values()), actor: input.actor },
      clock,
    ),
  };
}

async function makePlaceholder(
  tx: Tx,
  input: {
    groupId: number;
    name: string;
    resolution: Extract<Resolution, { kind: "placeholder" }>;
    actor: AuditActor;
  },
  clock: Clock,
): Promise<number> {
  const { resolution } = input;
  const user = await insertPlaceholderAccount(
    tx,
    {
      name: placeholderName(input.name),
      email: resolution.email ?? `imported-${randomUUID()}@placeholder.invalid`,
      familyKana: resolution.familyKana.slice(0, LIMITS.userReadingMaxChars),
      givenKana: resolution.givenKana.slice(0, LIMITS.userReadingMaxChars),
    },
    clock.now(),
  );
  await recordAudit(tx, clock, {
    actor: input.actor,
    groupId: input.groupId,
    action: "user.create",
    target: userTarget(user),
    details: { via: "import", placeholder: true },
  });
  return user.id;
}

/** Joins each user to the group unless a member already; returns how many joined. */
async function joinAll(
  tx: Tx,
  { groupId, userIds, actor }: { groupId: number; userIds: ReadonlySet<number>; actor: AuditActor },
  clock: Clock,
): Promise<number> {
  let joined = 0;
  for (const userId of userIds) {
    if (await tx.memberships.findJoined(groupId, userId)) continue;
    const member = await insertJoinedMember(tx, { groupId, userId, manager: false }, clock.now());
    const user = await tx.users.findById(userId);
    await recordAudit(tx, clock, {
      actor,
      groupId,
      action: "member.add",
      target: membershipTarget({ id: member.id, name: user?.name ?? "" }),
      details: { userId, via: "import" },
    });
    joined++;
  }
  return joined;
}

/** A name an account may have: one line, not too long (a name in a CSV cell may be anything). */
function placeholderName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is taken out
  const line = normalName(name.replace(/[\u0000-\u001f\u007f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, " "));
  return [...(line === "" ? "?" : line)].slice(0, LIMITS.userNameMaxChars).join("");
}
