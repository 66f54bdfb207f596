// Who the people of an export are. The files name people by display name only ("<姓> <名>");
// the member list joins a name to an e-mail address, the one stable identifier. A name is
// resolved: by the member list's address to an account; else by the account's name when exactly
// one account has it; else it becomes a placeholder (csv-import.md §5, §10). Two member rows of
// one name with different addresses cannot be told apart: that name is ambiguous, reported, and
// gets one placeholder of its own rather than a guess.
import type { MemberRecord } from "./members.js";

/** How the export marks a person who left the service. */
export const WITHDRAWN = "(サービス退会者)";

/** An account the names may resolve to. */
export interface KnownAccount {
  readonly id: number;
  readonly name: string;
  readonly email: string;
}

/** What a name of the export stands for. */
export type Resolution =
  | { readonly kind: "account"; readonly userId: number; readonly via: "email" | "name" }
  | {
      readonly kind: "placeholder";
      readonly reason: "unmatched" | "ambiguous" | "withdrawn" | "no-account";
      /** The member list's address when it has exactly one for the name and no account holds it. */
      readonly email: string | null;
      readonly familyKana: string;
      readonly givenKana: string;
    };

/** A display name as the files and the member list are compared: trimmed, runs of spaces as one. */
export function normalName(name: string): string {
  return name.normalize("NFKC").trim().replace(/\s+/g, " ");
}

/** Resolves every name of `names` (normalised). */
export function resolvePeople(
  names: Iterable<string>,
  members: readonly MemberRecord[],
  accounts: readonly KnownAccount[],
): Map<string, Resolution> {
  const rowsByName = groupBy(members, (member) => normalName(member.name));
  const accountsByEmail = new Map(accounts.map((account) => [account.email.toLowerCase(), account]));
  const accountsByName = groupBy(accounts, (account) => normalName(account.name));
  const resolved = new Map<string, Resolution>();
  for (const name of names) {
    if (resolved.has(name)) continue;
    resolved.set(name, resolveOne(name, rowsByName.get(name) ?? [], accountsByEmail, accountsByName.get(name) ?? []));
  }
  return resolved;
}

function resolveOne(
  name: string,
  rows: readonly MemberRecord[],
  accountsByEmail: ReadonlyMap<string, KnownAccount>,
  namesakes: readonly KnownAccount[],
): Resolution {
  const placeholder = (reason: "unmatched" | "ambiguous" | "withdrawn" | "no-account", email: string | null) => ({
    kind: "placeholder" as const,
    reason,
    email,
    familyKana: rows[0]?.familyKana ?? "",
    givenKana: rows[0]?.givenKana ?? "",
  });
  if (name === WITHDRAWN) return placeholder("withdrawn", null);
  const emails = [...new Set(rows.map((row) => row.email).filter((email) => email !== ""))];
  if (emails.length > 1) return placeholder("ambiguous", null);
  const email = emails[0];
  if (email !== undefined) {
    const account = accountsByEmail.get(email);
    return account ? { kind: "account", userId: account.id, via: "email" } : placeholder("no-account", email);
  }
  const [only, ...others] = namesakes;
  if (only !== undefined && others.length === 0) return { kind: "account", userId: only.id, via: "name" };
  return placeholder(namesakes.length > 1 ? "ambiguous" : "unmatched", null);
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = groups.get(key);
    if (list) list.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
