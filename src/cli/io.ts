// What a command reads and writes, given to it rather than taken from `process`: bin/kairan.js
// passes the process's own streams and environment, and a test passes buffers and an environment of
// its own, running many commands in one process (test/support/cli.ts).

/** Somewhere text goes: process.stdout, or a buffer. */
export interface TextSink {
  write(text: string): unknown;
}

/** Standard input: process.stdin, or a stream of the test's bytes. */
export type TextSource = AsyncIterable<string | Uint8Array> & { readonly isTTY?: boolean };

/** The process around a long-running command (`kairan serve`): its signals and its end. */
export interface CliProcess {
  onSignal(listener: (signal: NodeJS.Signals) => void): void;
  exit(code: number): void;
}

/** What `runCli` is given. */
export interface CliStreams {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  /**
   * Standard error as it is (no line end added), for a line rewritten in place: a long command's
   * progress, shown only when `isTTY` says a person watches it. Absent: no progress is shown.
   */
  readonly rawStderr?: TextSink & { readonly isTTY?: boolean };
  /** Absent: an empty input, as from `< /dev/null`. Read only by a command that reads it (a getter may make it then). */
  readonly stdin?: TextSource;
  /** Where the KAIRAN_* settings are read (docs/operations.md); nothing reads process.env. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Absent (a command run inside another program): `kairan serve` stops only with that program. */
  readonly process?: CliProcess;
}

/** What each command works with: one line out, one line to standard error, its input and settings. */
export interface CommandIo {
  /** Writes `text` and a line end to standard output, as console.log did. */
  out(text: string): void;
  /** Writes `text` and a line end to standard error. */
  err(text: string): void;
  readonly stdin: TextSource;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly process: CliProcess | undefined;
  /** Standard error as it is, for progress on a terminal (CliStreams.rawStderr). */
  readonly rawStderr: (TextSink & { readonly isTTY?: boolean }) | undefined;
}

const NO_INPUT: TextSource = { async *[Symbol.asyncIterator]() {} };

/** The command's view of `streams`. */
export function commandIo(streams: CliStreams): CommandIo {
  return {
    out: (text) => void streams.stdout.write(`${text}\n`),
    err: (text) => void streams.stderr.write(`${text}\n`),
    get stdin() {
      return streams.stdin ?? NO_INPUT;
    },
    env: streams.env,
    process: streams.process,
    rawStderr: streams.rawStderr,
  };
}
