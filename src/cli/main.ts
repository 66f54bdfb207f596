import { APP_HELP, app } from "./app.js";
import { BACKUP_HELP, backup } from "./backup.js";
import { COPY_HELP, copy } from "./copy.js";
import { EVENT_COMMAND } from "./event.js";
import { GENERATE_HELP, generate } from "./generate.js";
import { FILE_COMMAND } from "./file.js";
import { FOLDER_COMMAND } from "./folder.js";
import { MEMBER_COMMAND } from "./member.js";
import { explainFailure, oneLine } from "./failures.js";
import { type CliStreams, type CommandIo, commandIo } from "./io.js";
import { UsageError } from "./options.js";
import { REINDEX_HELP, reindex } from "./reindex.js";
import { SEED_HELP, seed } from "./seed.js";
import { SERVE_HELP, serve } from "./serve.js";
import { TASK_COMMAND } from "./task.js";
import { CHAT_COMMAND } from "./chat.js";
import { HOOK_COMMAND } from "./hook.js";
import { TOKEN_HELP, token } from "./token.js";
import { GROUP_COMMAND, USER_COMMAND } from "./user.js";
import { MAIL_COMMAND } from "./mail.js";
import { IMPORT_COMMAND } from "./import.js";
import { EXPORT_COMMAND, withArchiveImport } from "./archive.js";
import { WEBHOOK_COMMAND } from "./webhook.js";
import { WEBSUB_COMMAND } from "./websub.js";

const COMMANDS: Readonly<
  Record<string, { run: (args: readonly string[], io: CommandIo) => Promise<void>; help: string; summary: string }>
> = {
  serve: { run: serve, help: SERVE_HELP, summary: "start the HTTP server (loads the demo workspace on first start)" },
  seed: { run: seed, help: SEED_HELP, summary: "load a workspace description (JSON) into the database" },
  user: USER_COMMAND,
  group: GROUP_COMMAND,
  member: MEMBER_COMMAND,
  task: TASK_COMMAND,
  chat: CHAT_COMMAND,
  hook: HOOK_COMMAND,
  event: EVENT_COMMAND,
  file: FILE_COMMAND,
  folder: FOLDER_COMMAND,
  app: { run: app, help: APP_HELP, summary: "register, list and remove client applications (OAuth consumers)" },
  token: { run: token, help: TOKEN_HELP, summary: "issue, list and revoke tokens (OAuth token credentials, Bearer)" },
  copy: { run: copy, help: COPY_HELP, summary: "copy a SQLite installation into an empty PostgreSQL database" },
  backup: { run: backup, help: BACKUP_HELP, summary: "write a consistent copy of the SQLite database while it serves" },
  generate: {
    run: generate,
    help: GENERATE_HELP,
    summary: "fill an empty database with a synthetic dataset (benchmarks)",
  },
  reindex: { run: reindex, help: REINDEX_HELP, summary: "rebuild the full-text search index" },
  mail: MAIL_COMMAND,
  import: withArchiveImport(IMPORT_COMMAND),
  export: EXPORT_COMMAND,
  webhook: WEBHOOK_COMMAND,
  websub: WEBSUB_COMMAND,
};

const HELP = `Usage: kairan <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(8)} ${command.summary}`)
  .join("\n")}

Run 'kairan <command> --help' for a command's options.`;

/** Exit statuses (docs/operations.md): done, a bug, input the command cannot act on. */
const OK = 0;
const BUG = 1;
const REFUSED = 2;

/**
 * The command line: dispatches to a command and returns its exit status. Bad input, and every
 * failure explainFailure knows, is one line on standard error and status 2; anything else is a
 * bug, reported in one line with status 1. It never ends the process: bin/kairan.js sets the
 * status, and the tests run many commands in one process.
 */
export async function runCli(argv: readonly string[], streams: CliStreams): Promise<number> {
  const io = commandIo(streams);
  const fail = (message: string) => {
    io.err(`kairan: ${oneLine(message)}`);
    return REFUSED;
  };
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.out(HELP);
    return OK;
  }
  const command = COMMANDS[name];
  if (!command) return fail(`unknown command "${name.slice(0, 40)}"; run 'kairan --help' for the commands`);
  try {
    await command.run(args, io);
    return OK;
  } catch (error) {
    if (error instanceof UsageError) {
      const usage = error.command ?? name;
      return fail(`${usage}: ${error.message}; run 'kairan ${usage} --help' for its options`);
    }
    const explained = explainFailure(error);
    if (explained !== undefined) return fail(explained);
    io.err(bugReport(error));
    return BUG;
  }
}

/** The line for an error no rule foresaw: one line still, with a status (1) that tells it from bad input. */
export function bugReport(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `kairan: unexpected error (a bug; please report it): ${oneLine(text)}`;
}
