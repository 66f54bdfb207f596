// What the zip readers share (the original service's export, services/import/cybozulive-zip.ts, and
// the portable archive, services/archive/archive-zip-read.ts): yauzl's entries one at a time, as
// promises, and the first line of a library's error for the one-line refusal. And what the zip
// writers share (the archive, and the my-data download, web/pages/account-export.ts): waiting for
// archiver to take an entry, so that entries are streamed one at a time.
import type { Archiver } from "archiver";
import type yauzl from "yauzl";

/** The next entry of a zip opened with `lazyEntries`, or undefined at the end of its directory. */
export function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zip.off("entry", onEntry);
      zip.off("end", onEnd);
      zip.off("error", onError);
    };
    const onEntry = (entry: yauzl.Entry) => (cleanup(), resolve(entry));
    const onEnd = () => (cleanup(), resolve(undefined));
    const onError = (error: unknown) => (cleanup(), reject(error));
    zip.on("entry", onEntry).on("end", onEnd).on("error", onError);
    zip.readEntry();
  });
}

/** A zip library's error in one short line (its first, at most 120 characters). */
export function zipErrorLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]?.slice(0, 120) ?? "";
}

/**
 * Settles when the zip has taken the entry just appended; fails when the zip ends first (its
 * reader left), with `closed` as the message.
 */
export function entryWritten(zip: Archiver, closed: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      zip.off("close", gone).off("error", gone);
      resolve();
    };
    const gone = (error?: unknown) => {
      zip.off("entry", done);
      reject(error instanceof Error ? error : new Error(closed));
    };
    zip.once("entry", done).once("close", gone).once("error", gone);
  });
}
