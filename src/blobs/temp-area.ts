// Uploads are received into `<data>/tmp/<host>~<pid>~<nonce>/`, one directory per process, whichever
// store they are committed to. A process can thus tell its own temporary files from those of others
// sharing the data directory (the CLI, or several servers on shared storage), and remove what a
// crashed process left behind.
import { randomBytes, randomUUID } from "node:crypto";
import { createWriteStream, rmSync } from "node:fs";
import { mkdir, readdir, rm, stat, utimes } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { finished } from "node:stream/promises";
import type { TempBlob } from "./blob-store.js";

/** A live process touches its directory this often... */
const HEARTBEAT_MS = 10_000;
/** ...so one untouched for this long belongs to a process that is gone (on any machine). */
export const STALE_AFTER_MS = 30_000;

const SEPARATOR = "~";

/** This process's temporary directory, created on first use and kept fresh while the process lives. */
export interface TempArea {
  /** The directory's name under tmpRoot. */
  readonly name: string;
  /** A new temporary file `<area>/<uuid>.part`, created exclusively; its handle is its path. */
  create(): Promise<TempBlob>;
  /** The temporary file's path once everything written to it is on disk. */
  written(temp: TempBlob): Promise<string>;
  /** Ends the write (if any) and deletes the file; safe to repeat. */
  discard(temp: TempBlob): Promise<void>;
  /** Removes what processes that are gone left under tmpRoot (see sweepTempArea); returns how many. */
  sweep(): Promise<number>;
  /** Deletes this process's directory and everything in it, synchronously: the last thing before exit. */
  removeAll(): void;
}

/** Opens this process's area under `tmpRoot` (`<data>/tmp`). */
export function tempArea(tmpRoot: string): TempArea {
  const name = [safeHost(), process.pid, randomBytes(4).toString("hex")].join(SEPARATOR);
  const own = join(tmpRoot, name);
  let created: Promise<string> | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  const dir = (): Promise<string> => {
    created ??= mkdir(own, { recursive: true }).then(() => {
      heartbeat = setInterval(() => {
        const now = new Date();
        utimes(own, now, now).catch(() => undefined);
      }, HEARTBEAT_MS).unref();
      return own;
    });
    return created;
  };
  const area: TempArea = {
    name,
    async create() {
      const handle = join(await dir(), `${randomUUID()}.part`);
      return { handle, stream: createWriteStream(handle, { flags: "wx" }) };
    },
    async written(temp) {
      if (!temp.stream.writableFinished) await finished(temp.stream);
      return temp.handle;
    },
    async discard(temp) {
      // Destroy the sink, never the source (stack.md §5: a destroyed source can hang pipeline());
      // wait for its close so that no descriptor outlives the file.
      if (!temp.stream.closed) {
        temp.stream.destroy();
        await finished(temp.stream).catch(() => undefined);
      }
      await rm(temp.handle, { force: true });
    },
    sweep: () => sweepTempArea(tmpRoot, area),
    removeAll() {
      clearInterval(heartbeat);
      rmSync(own, { recursive: true, force: true });
    },
  };
  return area;
}

/**
 * Removes what no live process owns under `tmpRoot`: directories of processes of this machine
 * that are no longer running, directories nobody has touched for STALE_AFTER_MS, and loose files
 * as old. `own` (this process's area) is kept. Returns how many entries it removed.
 */
export async function sweepTempArea(
  tmpRoot: string,
  own: Pick<TempArea, "name">,
  now: number = Date.now(),
): Promise<number> {
  const names = await readdir(tmpRoot).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  let removed = 0;
  for (const name of names) {
    if (name === own.name) continue;
    const path = join(tmpRoot, name);
    const info = await stat(path).catch(() => undefined);
    if (info === undefined) continue;
    const stale = now - info.mtimeMs > STALE_AFTER_MS || (info.isDirectory() && ownerIsGone(name));
    if (!stale) continue;
    await rm(path, { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/**
 * True when the directory names a process of this machine that is not running. Another area with
 * this process's own pid is an earlier run's (a container's server is pid 1 at every start).
 */
function ownerIsGone(name: string): boolean {
  const [host, pidText] = name.split(SEPARATOR);
  const pid = Number(pidText);
  if (host !== safeHost() || !Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else; only ESRCH means it is gone.
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

function safeHost(): string {
  return hostname().replace(/[^A-Za-z0-9.-]/g, "_") || "host";
}
