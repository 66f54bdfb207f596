// `kairan user set-password|rename|disable|enable|unlock EMAIL`: an operator's changes to one account.
import { formatPair } from "../domain/item-id.js";
import type { User } from "../domain/user.js";
import { renameUser, setPassword, setUserDisabled, unlockUser } from "../services/account/account-admin.js";
import { type Subcommand, optional } from "./admin.js";
import { CommandError, UsageError } from "./options.js";

/** More than any password anyone types: a larger input is a mistake (a file piped in). */
const PASSWORD_MAX_BYTES = 1024;

/** The one EMAIL argument of an account command. @throws UsageError */
function emailArgument(positionals: readonly string[]): string {
  if (positionals.length !== 1 || positionals[0] === "")
    throw new UsageError(`give exactly one e-mail address (got ${positionals.length} arguments)`);
  return positionals[0] as string;
}

const account = (user: User) => ({ id: formatPair(user.id), name: user.name, email: user.email });

/**
 * The new password from standard input, never from the command line (shell history, `ps`):
 * one line, its line ending dropped. @throws CommandError
 */
async function passwordFromStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new CommandError("--password-stdin reads the password from a pipe, not a terminal");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > PASSWORD_MAX_BYTES)
      throw new CommandError(`the password on standard input is over ${PASSWORD_MAX_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
  if (/[\r\n]/.test(text)) throw new CommandError("the password on standard input must be a single line");
  return text;
}

/** The account subcommands of `kairan user`. */
export const ACCOUNT_SUBCOMMANDS: Readonly<Record<string, Subcommand>> = {
  "set-password": {
    summary: "set a new password, read from standard input; ends the user's web sessions",
    usage:
      "EMAIL --password-stdin   (e.g. printf '%s' \"$PW\" | kairan user set-password ann@example.com --password-stdin)",
    positionals: 1,
    options: { "password-stdin": { type: "boolean" } },
    async run(values, positionals, context) {
      const email = emailArgument(positionals);
      if (values["password-stdin"] !== true)
        throw new UsageError(
          "--password-stdin is required: the password is read from standard input, never from the command line",
        );
      const { user, sessionsEnded } = await setPassword(context, { email, password: await passwordFromStdin() });
      return { updated: "password", ...account(user), sessionsEnded };
    },
  },
  rename: {
    summary: "change the user's name (and reading in kana)",
    usage: "EMAIL [--name NAME] [--family-kana K] [--given-kana K]",
    positionals: 1,
    options: { name: { type: "string" }, "family-kana": { type: "string" }, "given-kana": { type: "string" } },
    async run(values, positionals, context) {
      const email = emailArgument(positionals);
      const names = {
        name: optional(values, "name"),
        familyKana: optional(values, "family-kana"),
        givenKana: optional(values, "given-kana"),
      };
      if (Object.values(names).every((value) => value === undefined))
        throw new UsageError("give --name, --family-kana or --given-kana");
      const user = await renameUser(context, { email, ...names });
      return { renamed: "user", ...account(user), familyKana: user.familyKana, givenKana: user.givenKana };
    },
  },
  disable: {
    summary: "disable the account: its tokens and web sessions stop working at once, sign-in is refused",
    usage: "EMAIL",
    positionals: 1,
    options: {},
    async run(_values, positionals, context) {
      const result = await setUserDisabled(context, { email: emailArgument(positionals), disabled: true });
      return {
        disabled: "user",
        ...account(result.user),
        changed: result.changed,
        sessionsEnded: result.sessionsEnded,
      };
    },
  },
  enable: {
    summary: "enable a disabled account again (its tokens work again; its sessions were ended)",
    usage: "EMAIL",
    positionals: 1,
    options: {},
    async run(_values, positionals, context) {
      const result = await setUserDisabled(context, { email: emailArgument(positionals), disabled: false });
      return { enabled: "user", ...account(result.user), changed: result.changed };
    },
  },
  unlock: {
    summary: "forget the account's failed sign-ins, so that its owner may sign in at once",
    usage: "EMAIL",
    positionals: 1,
    options: {},
    async run(_values, positionals, context) {
      return { unlocked: "user", ...account(await unlockUser(context, emailArgument(positionals))) };
    },
  },
};
