// What a command that sends mail works with: the services' context plus the mail settings and the
// site's address for links, from the same options and environment as `kairan serve`.
import { loadConfig } from "../config/config.js";
import type { AccountMailContext } from "../services/account/mail-recipient.js";
import type { AdminContext, Values } from "./admin.js";
import type { CommandIo } from "./io.js";
import { configFlags } from "./options.js";

/** The mail context of a command: `--public-url` (else the server's host and port) is the base of links. */
export function commandMailContext(values: Values, context: AdminContext, io: CommandIo): AccountMailContext {
  const config = loadConfig(configFlags(values), io.env);
  const base = config.publicUrl ?? `http://${config.host}:${config.port}`;
  return { ...context, config, baseUrl: () => base };
}
