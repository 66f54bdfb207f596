import { systemClock } from "../clock.js";
import { createTokenAsOperator, revokeTokenAsOperator } from "../services/oauth/app-admin.js";
import { CommandError, SERVER_OPTIONS, UsageError, parseCommand, commandOptionsHelp } from "./options.js";
import type { CommandIo } from "./io.js";
import { printRows, withStore } from "./store-command.js";

/** Usage of `kairan token`. */
export const TOKEN_HELP = `Usage: kairan token add --user EMAIL --app KEY [--label LABEL]
       kairan token list [--json]
       kairan token revoke ID

Issues token credentials for a user through an application. The token works as OAuth 1.0a token
credentials (with its secret) and as 'Authorization: Bearer TOKEN', at the application's access
level. 'add' prints the token and its secret once; 'list' never shows them.

${commandOptionsHelp()}`;

const OPTIONS = {
  ...SERVER_OPTIONS,
  user: { type: "string" },
  app: { type: "string" },
  label: { type: "string" },
  json: { type: "boolean" },
} as const;

/** `kairan token add|list|revoke`. @throws UsageError, CommandError, ConfigError */
export async function token(args: readonly string[], io: CommandIo): Promise<void> {
  const { values, positionals } = parseCommand(args, OPTIONS);
  if (values.help) return io.out(TOKEN_HELP);
  const [action, ...rest] = positionals;
  switch (action) {
    case "add":
      if (rest.length > 0) throw new UsageError("kairan token add takes no positional arguments");
      return addToken(values, io);
    case "list":
      if (rest.length > 0) throw new UsageError(`kairan token list takes no positional arguments`);
      return withStore(values, io, async (store) => {
        const tokens = await store.read((tx) => tx.tokens.list());
        const rows = tokens.map((t) => ({
          id: t.id,
          user: t.userEmail,
          app: t.appConsumerKey,
          label: t.label,
          created: new Date(t.createdAt).toISOString(),
          revoked: t.revokedAt === null ? null : new Date(t.revokedAt).toISOString(),
        }));
        printRows(io, rows, ["id", "user", "app", "label", "created", "revoked"], values.json === true);
      });
    case "revoke":
      return revokeToken(values, rest, io);
    default:
      throw new UsageError(
        action === undefined ? "kairan token needs add, list or revoke" : `unknown action "${action}"`,
      );
  }
}

async function addToken(
  values: { user?: string; app?: string; label?: string } & Record<string, string | boolean | undefined>,
  io: CommandIo,
): Promise<void> {
  const email = values.user?.trim().toLowerCase();
  const key = values.app;
  if (!email || !key) throw new UsageError("--user and --app are required");
  const label = values.label ?? "";
  const result = await withStore(values, io, (store) =>
    createTokenAsOperator({ store, clock: systemClock }, { email, consumerKey: key, label }),
  );
  if ("missing" in result)
    throw new CommandError(
      result.missing === "user" ? `no user has the e-mail address "${email}"` : `no application has the key "${key}"`,
    );
  const { issued } = result;
  // Printed once: only the token's hash is stored.
  io.out(`token:        ${issued.token}\ntoken secret: ${issued.secret}`);
}

async function revokeToken(
  values: Record<string, string | boolean | undefined>,
  rest: readonly string[],
  io: CommandIo,
): Promise<void> {
  const [id, ...extra] = rest;
  if (id === undefined || extra.length > 0 || !/^[0-9]{1,12}$/.test(id))
    throw new UsageError("kairan token revoke takes exactly one numeric ID");
  const revoked = await withStore(values, io, (store) =>
    revokeTokenAsOperator({ store, clock: systemClock }, { tokenId: Number(id) }),
  );
  if (!revoked) throw new CommandError(`no live token has the id ${id}`);
  io.out(`revoked token ${id}`);
}
