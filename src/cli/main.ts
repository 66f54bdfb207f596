import { BlobStoreError } from "../blobs/blob-store.js";
import { ConfigError } from "../config/config.js";
import { DomainError } from "../domain/errors.js";
import { SeedError } from "../seed/validate.js";
import { CopyError } from "../store/copy.js";
import { APP_HELP, app } from "./app.js";
import { BACKUP_HELP, backup } from "./backup.js";
import { COPY_HELP, copy } from "./copy.js";
import { GENERATE_HELP, generate } from "./generate.js";
import { FILE_COMMAND } from "./file.js";
import { MEMBER_COMMAND } from "./member.js";
import { CommandError, UsageError } from "./options.js";
import { SEED_HELP, seed } from "./seed.js";
import { SERVE_HELP, serve } from "./serve.js";
import { TASK_COMMAND } from "./task.js";
import { TOKEN_HELP, token } from "./token.js";
import { GROUP_COMMAND, USER_COMMAND } from "./user.js";

const COMMANDS: Readonly<
  Record<string, { run: (args: readonly string[]) => Promise<void>; help: string; summary: string }>
> = {
  serve: { run: serve, help: SERVE_HELP, summary: "start the HTTP server (loads the demo workspace on first start)" },
  seed: { run: seed, help: SEED_HELP, summary: "load a workspace description (JSON) into the database" },
  user: USER_COMMAND,
  group: GROUP_COMMAND,
  member: MEMBER_COMMAND,
  task: TASK_COMMAND,
  file: FILE_COMMAND,
  app: { run: app, help: APP_HELP, summary: "register, list and remove client applications (OAuth consumers)" },
  token: { run: token, help: TOKEN_HELP, summary: "issue, list and revoke tokens (OAuth token credentials, Bearer)" },
  copy: { run: copy, help: COPY_HELP, summary: "copy a SQLite installation into an empty PostgreSQL database" },
  backup: { run: backup, help: BACKUP_HELP, summary: "write a consistent copy of the SQLite database while it serves" },
  generate: {
    run: generate,
    help: GENERATE_HELP,
    summary: "fill an empty database with a synthetic dataset (benchmarks)",
  },
};

const HELP = `Usage: kairan <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(8)} ${command.summary}`)
  .join("\n")}

Run 'kairan <command> --help' for a command's options.`;

/** The command line: dispatches to a command; bad input is one clear message and exit status 2. */
export async function main(argv: readonly string[]): Promise<void> {
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") return void console.log(HELP);
  const command = COMMANDS[name];
  if (!command) return fail(`unknown command "${name}"\n\n${HELP}`);
  try {
    await command.run(args);
  } catch (error) {
    if (error instanceof UsageError) return fail(`${error.message}\n\n${command.help}`);
    if (
      error instanceof ConfigError ||
      error instanceof SeedError ||
      error instanceof CommandError ||
      error instanceof CopyError ||
      error instanceof BlobStoreError
    ) {
      return fail(error.message);
    }
    // A refused operation (unknown group, last manager, bad title...): the rule's own message.
    if (error instanceof DomainError) return fail(`${error.message} (${error.code})`);
    throw error;
  }
}

function fail(message: string): void {
  console.error(`kairan: ${message}`);
  process.exitCode = 2;
}
