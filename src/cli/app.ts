import { generateSecret } from "../auth/token.js";
import { systemClock } from "../clock.js";
import {
  createApplicationAsOperator,
  deleteApplicationAsOperator,
  revokeApplicationTokens,
  rotateApplicationSecret,
  updateApplicationAsOperator,
} from "../services/oauth/app-admin.js";
import { ACCESS_LEVELS, isAccessLevel } from "../domain/access.js";
import { CommandError, SERVER_OPTIONS, UsageError, parseCommand, commandOptionsHelp } from "./options.js";
import type { CommandIo } from "./io.js";
import { printRows, withStore } from "./store-command.js";

/** Usage of `kairan app`. */
export const APP_HELP = `Usage: kairan app add --name NAME --level read|comments|write|Z [--key KEY --secret SECRET] [--legacy-signing]
       kairan app list [--json]
       kairan app update KEY --legacy-signing|--no-legacy-signing
       kairan app remove KEY
       kairan app rotate-secret KEY
       kairan app revoke-tokens KEY

Registers the client applications (OAuth consumers) that may call the API. 'add' prints the
consumer key and secret once; without --key and --secret they are generated. 'remove' also
revokes every token issued through the application. Secrets are never listed. 'rotate-secret'
prints a new consumer secret once (the old one stops working); 'revoke-tokens' revokes every token
issued through the application and keeps it.

--legacy-signing lets the application's access-token request (/oauth/token, after the person
approved) be signed with an empty token secret, as Catalyst::Authentication::Credential::OAuth
0.04 does; nowhere else. Off unless set; 'update' sets or clears it on an existing application.

${commandOptionsHelp()}`;

const OPTIONS = {
  ...SERVER_OPTIONS,
  name: { type: "string" },
  level: { type: "string" },
  key: { type: "string" },
  secret: { type: "string" },
  json: { type: "boolean" },
  "legacy-signing": { type: "boolean" },
  "no-legacy-signing": { type: "boolean" },
} as const;

/** `kairan app add|list|update|remove`. @throws UsageError, CommandError, ConfigError */
export async function app(args: readonly string[], io: CommandIo): Promise<void> {
  const { values, positionals } = parseCommand(args, OPTIONS);
  if (values.help) return io.out(APP_HELP);
  const [action, ...rest] = positionals;
  switch (action) {
    case "add":
      if (rest.length > 0) throw new UsageError("kairan app add takes no positional arguments");
      return addApp(values, io);
    case "list":
      if (rest.length > 0) throw new UsageError(`kairan app list takes no positional arguments`);
      return withStore(values, io, async (store) => {
        const apps = await store.read((tx) => tx.apps.list());
        const rows = apps.map((a) => ({ id: a.id, key: a.consumerKey, level: a.accessLevel, name: a.name }));
        printRows(io, rows, ["id", "key", "level", "name"], values.json === true);
      });
    case "update":
      return updateApp(values, rest, io);
    case "remove": {
      const [key, ...extra] = rest;
      if (key === undefined || extra.length > 0) throw new UsageError("kairan app remove takes exactly one KEY");
      const removed = await withStore(values, io, (store) =>
        deleteApplicationAsOperator({ store, clock: systemClock }, { consumerKey: key }),
      );
      if (!removed) throw new CommandError(`no application has the key "${key}"`);
      return io.out(`removed application ${key} and its tokens`);
    }
    case "rotate-secret": {
      const key = onlyKey(rest, "rotate-secret");
      const secret = await withStore(values, io, (store) =>
        rotateApplicationSecret({ store, clock: systemClock }, { consumerKey: key }),
      );
      if (secret === undefined) throw new CommandError(`no application has the key "${key}"`);
      // Printed once, like the secret of 'add'.
      return io.out(`consumer key:    ${key}\nconsumer secret: ${secret}`);
    }
    case "revoke-tokens": {
      const key = onlyKey(rest, "revoke-tokens");
      const revoked = await withStore(values, io, (store) =>
        revokeApplicationTokens({ store, clock: systemClock }, { consumerKey: key }),
      );
      if (revoked === undefined) throw new CommandError(`no application has the key "${key}"`);
      return io.out(`revoked ${revoked} tokens of application ${key}`);
    }
    default:
      throw new UsageError(
        action === undefined
          ? "kairan app needs add, list, update, remove, rotate-secret or revoke-tokens"
          : `unknown action "${action}"`,
      );
  }
}

async function addApp(
  values: { name?: string; level?: string; key?: string; secret?: string } & Record<
    string,
    string | boolean | undefined
  >,
  io: CommandIo,
): Promise<void> {
  const name = values.name?.trim();
  if (!name) throw new UsageError("--name is required");
  const level = values.level ?? "";
  if (!isAccessLevel(level)) throw new UsageError(`--level must be one of ${ACCESS_LEVELS.join(", ")}`);
  if ((values.key === undefined) !== (values.secret === undefined))
    throw new UsageError("give --key and --secret together, or neither");
  if (values.key !== undefined && (values.key.trim() === "" || (values.secret ?? "").length < 8)) {
    throw new UsageError("--key must not be empty and --secret must have at least 8 characters");
  }
  if (values["no-legacy-signing"] === true) throw new UsageError("kairan app add takes --legacy-signing or nothing");
  const legacySigning = values["legacy-signing"] === true;
  const consumerKey = values.key ?? generateSecret();
  const consumerSecret = values.secret ?? generateSecret();
  const input = { name, consumerKey, consumerSecret, accessLevel: level, legacySigning };
  const created = await withStore(values, io, (store) =>
    createApplicationAsOperator({ store, clock: systemClock }, input),
  );
  if (!created) throw new CommandError(`an application with the key "${consumerKey}" exists already`);
  // Printed once: the secret cannot be shown again (list never prints it).
  io.out(
    `name:            ${name}\naccess level:    ${level}\nconsumer key:    ${consumerKey}\nconsumer secret: ${consumerSecret}`,
  );
  if (legacySigning) io.out("legacy signing:  on");
}

/** `kairan app update KEY --legacy-signing|--no-legacy-signing`: the only setting that changes. */
async function updateApp(
  values: Record<string, string | boolean | undefined>,
  rest: readonly string[],
  io: CommandIo,
): Promise<void> {
  const [key, ...extra] = rest;
  if (key === undefined || extra.length > 0) throw new UsageError("kairan app update takes exactly one KEY");
  const on = values["legacy-signing"] === true;
  if (on === (values["no-legacy-signing"] === true))
    throw new UsageError("kairan app update needs --legacy-signing or --no-legacy-signing");
  const other = ["name", "level", "key", "secret"].find((name) => values[name] !== undefined);
  if (other !== undefined) throw new UsageError(`kairan app update does not change --${other}`);
  const updated = await withStore(values, io, (store) =>
    updateApplicationAsOperator({ store, clock: systemClock }, { consumerKey: key, legacySigning: on }),
  );
  if (!updated) throw new CommandError(`no application has the key "${key}"`);
  io.out(`legacy signing ${on ? "on" : "off"} for application ${key}`);
}

/** The one KEY argument of an action. @throws UsageError */
function onlyKey(rest: readonly string[], action: string): string {
  const [key, ...extra] = rest;
  if (key === undefined || extra.length > 0) throw new UsageError(`kairan app ${action} takes exactly one KEY`);
  return key;
}
