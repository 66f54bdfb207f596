import { type ParseArgsConfig, parseArgs } from "node:util";
import type { ConfigFlags } from "../config/config.js";

/** The server options every command that opens the store shares (operations.md). */
export const SERVER_OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  data: { type: "string" },
  database: { type: "string" },
  "public-url": { type: "string" },
  "no-demo": { type: "boolean" },
  locale: { type: "string" },
  "log-level": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Help text for the shared options. */
export const SERVER_OPTIONS_HELP = `Options (each also read from its environment variable):
  --port N            KAIRAN_PORT          TCP port, 0 picks a free one (default 8080)
  --host H            KAIRAN_HOST          address to listen on (default 127.0.0.1)
  --data DIR          KAIRAN_DATA_DIR      SQLite database and stored files (default ./data)
  --database URL      KAIRAN_DATABASE_URL  postgres://... selects PostgreSQL instead of SQLite;
                                           ?search_path=SCHEMA picks the schema (default public)
  --public-url URL    KAIRAN_PUBLIC_URL    {base_url} for links and OAuth behind a proxy
  --no-demo           KAIRAN_DEMO=0        do not load the demo workspace into an empty database
  --locale ja|en      KAIRAN_LOCALE        language of labels carried as data (default ja)
  --log-level LEVEL   KAIRAN_LOG_LEVEL     fatal, error, warn, info (default), debug, trace, silent`;

/** A command-line mistake: printed with the command's usage, exit status 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Input the command cannot act on (an unknown user, a taken key): one line, exit status 2. */
export class CommandError extends Error {
  override name = "CommandError";
}

/** Parses a command's arguments; unknown options are usage errors. */
export function parseCommand<T extends NonNullable<ParseArgsConfig["options"]>>(args: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** The configuration flags out of parsed option values. */
export function configFlags(values: Record<string, string | boolean | undefined>): ConfigFlags {
  const text = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : undefined);
  return {
    port: text("port"),
    host: text("host"),
    data: text("data"),
    database: text("database"),
    publicUrl: text("public-url"),
    noDemo: values["no-demo"] === true,
    locale: text("locale"),
    logLevel: text("log-level"),
  };
}
