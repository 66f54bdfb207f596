import { loadConfig } from "../config/config.js";
import { openStore } from "../store/open.js";
import type { Store } from "../store/store.js";
import type { CommandIo } from "./io.js";
import { configFlags } from "./options.js";

/** Opens the configured store (migrated), runs `work`, and always closes it. */
export async function withStore<T>(
  values: Record<string, string | boolean | undefined>,
  io: CommandIo,
  work: (store: Store) => Promise<T>,
): Promise<T> {
  const store = await openStore(loadConfig(configFlags(values), io.env).store);
  try {
    await store.migrate();
    return await work(store);
  } finally {
    await store.close();
  }
}

/** Prints rows as JSON, or as an aligned table with a header line. */
export function printRows(
  io: CommandIo,
  rows: ReadonlyArray<Readonly<Record<string, string | number | null>>>,
  columns: readonly string[],
  json: boolean,
): void {
  if (json) return io.out(JSON.stringify(rows, null, 2));
  const cells = [columns, ...rows.map((row) => columns.map((column) => String(row[column] ?? "")))];
  const widths = columns.map((_, index) => Math.max(...cells.map((line) => (line[index] ?? "").length)));
  for (const line of cells)
    io.out(
      line
        .map((cell, index) => cell.padEnd(widths[index] ?? 0))
        .join("  ")
        .trimEnd(),
    );
}
