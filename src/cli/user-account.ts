// `kairan user set-password|rename|disable|enable|reset-password|require-two-factor|remove-two-factor|unlock|admin EMAIL`:
// an operator's changes to one account.
import { formatPair } from "../domain/item-id.js";
import type { User } from "../domain/user.js";
import { renameUser, setPassword, setUserDisabled, unlockUser } from "../services/account/account-admin.js";
import { resetPasswordAsOperator } from "../services/account/password-reset.js";
import { removeTwoFactorAsOperator, requireTwoFactorAsOperator } from "../services/two-factor/two-factor-admin.js";
import { OPERATOR, setSiteAdmin } from "../services/account/site-admin.js";
import { type Subcommand, optional } from "./admin.js";
import type { TextSource } from "./io.js";
import { commandMailContext } from "./mail-context.js";
import { CommandError, UsageError } from "./options.js";

/** More than any password anyone types: a larger input is a mistake (a file piped in). */
const PASSWORD_MAX_BYTES = 1024;

/** The one EMAIL argument of an account command. @throws UsageError */
function emailArgument(positionals: readonly string[]): string {
  if (positionals.length !== 1 || positionals[0] === "")
    throw new UsageError(`give exactly one e-mail address (got ${positionals.length} arguments)`);
  return positionals[0] as string;
}

/**
 * A switch given as a pair of flags (`--on|--off`, `--grant|--revoke`): true for `yes`, false for
 * `no`. @throws UsageError when neither or both are given
 */
function eitherFlag(values: Readonly<Record<string, unknown>>, yes: string, no: string): boolean {
  if ((values[yes] === true) === (values[no] === true))
    throw new UsageError(`give exactly one of --${yes} and --${no}`);
  return values[yes] === true;
}

const account = (user: User) => ({ id: formatPair(user.id), name: user.name, email: user.email });

/**
 * The new password from standard input, never from the command line (shell history, `ps`):
 * one line, its line ending dropped. @throws CommandError
 */
async function passwordFromStdin(stdin: TextSource): Promise<string> {
  if (stdin.isTTY) throw new CommandError("--password-stdin reads the password from a pipe, not a terminal");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const bytes =
      typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    size += bytes.length;
    if (size > PASSWORD_MAX_BYTES)
      throw new CommandError(`the password on standard input is over ${PASSWORD_MAX_BYTES} bytes`);
    chunks.push(bytes);
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
    async run(values, positionals, context, io) {
      const email = emailArgument(positionals);
      if (values["password-stdin"] !== true)
        throw new UsageError(
          "--password-stdin is required: the password is read from standard input, never from the command line",
        );
      const { user, sessionsEnded } = await setPassword(context, {
        email,
        password: await passwordFromStdin(io.stdin),
      });
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
  "reset-password": {
    summary: "mail the user a password reset link (one hour, once); --print prints the link instead",
    uses: "links",
    usage: "EMAIL [--print]   (the link's base is --public-url)",
    positionals: 1,
    options: { print: { type: "boolean" } },
    async run(values, positionals, context, io) {
      const email = emailArgument(positionals);
      const print = values.print === true;
      const done = await resetPasswordAsOperator(commandMailContext(values, context, io), { email, print });
      return {
        ...(print ? { link: done.link } : { sent: "password-reset" }),
        ...account(done.user),
        expires: new Date(done.expiresAt).toISOString(),
      };
    },
  },
  "require-two-factor": {
    summary: "require (--on) or stop requiring (--off) a second factor at the user's sign-in",
    usage: "EMAIL --on|--off   (without one yet, the user is led to set it up right after the password)",
    positionals: 1,
    options: { on: { type: "boolean" }, off: { type: "boolean" } },
    async run(values, positionals, context) {
      const email = emailArgument(positionals);
      const required = eitherFlag(values, "on", "off");
      const done = await requireTwoFactorAsOperator(context, { email, required });
      return {
        twoFactorRequired: required,
        ...account(done.user),
        changed: done.changed,
        twoFactorOn: done.totpOn,
      };
    },
  },
  "remove-two-factor": {
    summary:
      "turn the user's two-factor sign-in off and remove their passkeys (lost phone, codes and keys): the password alone signs in",
    usage: "EMAIL",
    positionals: 1,
    options: {},
    async run(_values, positionals, context) {
      const done = await removeTwoFactorAsOperator(context, emailArgument(positionals));
      return { removed: "two-factor", ...account(done.user), changed: done.changed };
    },
  },
  admin: {
    summary: "grant or remove the site administrator's role (the last administrator keeps it)",
    usage: "EMAIL --grant|--revoke",
    positionals: 1,
    options: { grant: { type: "boolean" }, revoke: { type: "boolean" } },
    async run(values, positionals, context) {
      const email = emailArgument(positionals);
      const admin = eitherFlag(values, "grant", "revoke");
      const done = await setSiteAdmin(context, OPERATOR, { user: { email }, admin });
      return { ...account(done.user), admin, changed: done.changed };
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
