// What `kairan serve` checks before it writes anything: a start that cannot succeed fails with one
// line naming the cause and the fix, and leaves no data directory, database or demo data behind.
import { accessSync, constants, statSync } from "node:fs";
import { createServer } from "node:net";
import { dirname } from "node:path";
import type { Config } from "../config/config.js";
import { CommandError } from "./options.js";

/**
 * Checks, creating nothing, that the data directory is a directory this process may write into
 * (or can be created in one), and that an existing SQLite file there is writable.
 * @throws CommandError
 */
export function checkDataDir(config: Pick<Config, "dataDir" | "store">): void {
  const dir = config.dataDir;
  const existing = nearestExisting(dir);
  if (!existing.isDirectory) {
    throw new CommandError(
      existing.path === dir
        ? `--data ${dir} is a file, not a directory; choose a directory (it is created when missing)`
        : `--data ${dir}: ${existing.path} is a file, not a directory; choose another --data`,
    );
  }
  const problem = notWritable(existing.path, constants.W_OK | constants.X_OK);
  if (problem) {
    const where = existing.path === dir ? `--data ${dir}` : `--data ${dir}: ${existing.path}`;
    throw new CommandError(`${where} ${problem}; fix its permissions or choose another --data`);
  }
  if (config.store.kind === "sqlite" && existing.path === dir) {
    const file = config.store.file;
    const fileProblem = exists(file) ? notWritable(file, constants.W_OK | constants.R_OK) : undefined;
    if (fileProblem) throw new CommandError(`${file} ${fileProblem}; fix its permissions or choose another --data`);
  }
}

/**
 * Binds the address and port once and lets go, so that a port in use or an address this
 * machine does not have is reported before the database is touched. (Another process may
 * still take the port in the moment before the server binds it: the same message then.)
 * @throws CommandError
 */
export async function checkListen(host: string, port: number, option = "--port"): Promise<void> {
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once("error", reject);
      probe.listen({ host, port, exclusive: true }, resolve);
    });
  } catch (error) {
    throw new CommandError(listenProblem(error, host, port, option), { cause: error });
  } finally {
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  }
}

/**
 * The inbound SMTP port (`--smtp-inbound-port`), checked like the HTTP one: free, and not the
 * HTTP port itself. Port 0 (any free port) needs no check.
 * @throws CommandError
 */
export async function checkInboundListen(config: Pick<Config, "host" | "port" | "mail">): Promise<void> {
  const port = config.mail.inboundPort;
  if (port === undefined || port === 0) return;
  if (port === config.port)
    throw new CommandError(`--smtp-inbound-port ${port} is the HTTP port (--port); give each its own port`);
  await checkListen(config.host, port, "--smtp-inbound-port");
}

/** One sentence for a failure to listen on `host`:`port` (the port given by `option`). */
export function listenProblem(error: unknown, host: string, port: number, option = "--port"): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "EADDRINUSE":
      return `port ${port} on ${host} is in use; stop the other server or choose another ${option}`;
    case "EADDRNOTAVAIL":
      return `--host ${host} is not an address of this machine; give one of its addresses (0.0.0.0: all of them)`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `--host ${host}: no such host name; give an address of this machine`;
    case "EACCES":
      return `port ${port} needs privileges this user does not have; choose ${option} 1024 or above`;
    case "EAFNOSUPPORT":
      return `--host ${host}: this machine does not support that address family; give an IPv4 address`;
    default:
      return `cannot listen on ${host}:${port} (${(error as Error | undefined)?.message ?? String(error)})`;
  }
}

function nearestExisting(path: string): { path: string; isDirectory: boolean } {
  for (let current = path; ; current = dirname(current)) {
    try {
      return { path: current, isDirectory: statSync(current).isDirectory() };
    } catch (error) {
      // ENOTDIR: a file stands where a directory of the path should be; keep walking up to it.
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== "ENOENT" && code !== "ENOTDIR") || dirname(current) === current) throw error;
    }
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Why this process may not use `path` as `mode` asks, or undefined when it may. */
function notWritable(path: string, mode: number): string | undefined {
  try {
    accessSync(path, mode);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "EROFS" ? "is on a read-only file system" : "is not writable by this user";
  }
}
