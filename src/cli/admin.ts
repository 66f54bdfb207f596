import type { ParseArgsConfig } from "node:util";
import { openBlobStore } from "../blobs/open.js";
import { systemClock } from "../clock.js";
import { loadConfig } from "../config/config.js";
import { type ContentKind, type ContentRef, parseGroupParameter, parseItemId, parsePair } from "../domain/item-id.js";
import { openStore } from "../store/open.js";
import type { ServiceContext } from "../services/context.js";
import type { CommandIo } from "./io.js";
import { SERVER_OPTIONS, UsageError, commandOptionsHelp, configFlags, parseCommand } from "./options.js";

/** Parsed option values of a subcommand. */
export type Values = Readonly<Record<string, string | boolean | undefined>>;

/** What an administration command works with: exactly what the services it calls take. */
export type AdminContext = ServiceContext;

/** One subcommand (`kairan task add`): its options, usage text and work; the result is printed as JSON. */
export interface Subcommand {
  readonly summary: string;
  readonly usage: string;
  readonly options: NonNullable<ParseArgsConfig["options"]>;
  /** How many plain arguments it takes (`user disable EMAIL`: 1); none when absent. */
  readonly positionals?: number;
  /** Whether it mails or prints links (`links`: its --help shows --public-url) or sends mail itself (`mail`). */
  readonly uses?: "links" | "mail";
  /** `io` for what it reads (standard input); what it returns is printed. */
  run(values: Values, positionals: readonly string[], context: AdminContext, io: CommandIo): Promise<unknown>;
}

/** A command with subcommands, as `main.ts` registers it. */
export interface CommandGroup {
  readonly run: (args: readonly string[], io: CommandIo) => Promise<void>;
  readonly help: string;
  readonly summary: string;
}

/** Builds `kairan <name> <subcommand> [options]`: parses, opens the store, runs, prints what was done. */
export function commandGroup(
  name: string,
  summary: string,
  subcommands: Readonly<Record<string, Subcommand>>,
): CommandGroup {
  const help = `Usage: kairan ${name} <${Object.keys(subcommands).join("|")}> [options]

${Object.entries(subcommands)
  .map(([sub, command]) => `  ${sub.padEnd(12)} ${command.summary}`)
  .join("\n")}

Run 'kairan ${name} <subcommand> --help' for its options. Each prints what it did as JSON.`;
  return {
    summary,
    help,
    async run(args, io) {
      const [sub, ...rest] = args;
      if (sub === undefined || sub === "--help" || sub === "-h") return io.out(help);
      const command = subcommands[sub];
      if (!command) throw new UsageError(`unknown subcommand "${sub.slice(0, 40)}" of kairan ${name}`);
      try {
        await runSubcommand(`${name} ${sub}`, command, rest, io);
      } catch (error) {
        // Point the usage line at the subcommand's own --help.
        if (error instanceof UsageError && error.command === undefined)
          throw new UsageError(error.message, `${name} ${sub}`);
        throw error;
      }
    },
  };
}

/** Runs one subcommand as `kairan <name>`: parses, opens the store, runs, prints what it returned. */
export async function runSubcommand(
  name: string,
  command: Subcommand,
  args: readonly string[],
  io: CommandIo,
): Promise<void> {
  const usage = `Usage: kairan ${name} ${command.usage}\n\n${command.summary}\n\n${commandOptionsHelp(command.uses)}`;
  const { values, positionals } = parseCommand(args, { ...SERVER_OPTIONS, ...command.options });
  if (values.help) return io.out(usage);
  // A word beyond the arguments a subcommand takes is a mistake, never silently ignored.
  const extra = positionals[command.positionals ?? 0];
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra.slice(0, 40)}"`);
  const config = loadConfig(configFlags(values), io.env);
  const blobs = await openBlobStore(config.blobStore, config.dataDir);
  try {
    const store = await openStore(config.store);
    try {
      await store.migrate();
      const result = await command.run(values, positionals, { store, blobs, clock: systemClock }, io);
      io.out(JSON.stringify(result));
    } finally {
      await store.close();
    }
  } finally {
    await blobs.close();
    // Files committed or discarded, this process's temporary directory is empty: remove it, so
    // that the next server start has nothing to sweep.
    blobs.removeTemp();
  }
}

/** A string option that must be given. @throws UsageError */
export function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value === "") throw new UsageError(`--${name} is required`);
  return value;
}

/** A string option, or undefined. */
export function optional(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

/** `--group 1:12` (or `GROUP,1:12`). @throws UsageError */
export function groupOption(values: Values): number {
  const text = required(values, "group");
  const id = parseGroupParameter(text);
  if (id === undefined) throw new UsageError(`--group must be a group id such as 1:1 (got "${text.slice(0, 40)}")`);
  return id;
}

/** An item id option of one kind (`--task GROUP,1:1,TASK,1:2`). @throws UsageError */
export function itemOption(values: Values, name: string, kind: ContentKind): ContentRef {
  const text = required(values, name);
  const ref = parseItemId(text);
  if (ref?.kind !== kind)
    throw new UsageError(`--${name} must be an id such as GROUP,1:1,${kind},1:2 (got "${text.slice(0, 40)}")`);
  return ref;
}

/** An optional folder id option (`--folder 1:3`). @throws UsageError */
export function folderOption(values: Values): number | null {
  const text = optional(values, "folder");
  if (text === undefined) return null;
  const id = parsePair(text);
  if (id === undefined) throw new UsageError(`--folder must be a folder id such as 1:3 (got "${text.slice(0, 40)}")`);
  return id;
}

/** `true`/`false`. @throws UsageError */
export function booleanOption(values: Values, name: string): boolean {
  const text = required(values, name).toLowerCase();
  if (text !== "true" && text !== "false") throw new UsageError(`--${name} must be true or false`);
  return text === "true";
}
