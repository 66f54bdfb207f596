// Databases as earlier releases made them (test/fixtures/migrations/, made by
// scripts/make-migration-fixtures.ts), restored into a fresh SQLite file or PostgreSQL schema.
import { readFileSync } from "node:fs";
import SQLite from "better-sqlite3";
import pg from "pg";
import type { StoreConfig } from "../../src/config/config.js";

/** The releases whose databases the fixtures hold. */
export const EARLIER_RELEASES = ["5f10033"] as const;

/** Fills a new, empty database with `release`'s fixture for its engine (for openTestStore's `restore`). */
export function restoreEarlierDatabase(release: string): (config: StoreConfig) => Promise<void> {
  return async (config) => {
    const text = readFileSync(new URL(`../fixtures/migrations/${release}.${config.kind}.sql`, import.meta.url), "utf8");
    if (config.kind === "sqlite") {
      const db = new SQLite(config.file);
      try {
        db.exec(text);
      } finally {
        db.close();
      }
    } else {
      await rawRows(config, text);
    }
  };
}

/** Runs SQL on the database straight through the driver (no Kairan code in between). */
export async function rawRows(config: StoreConfig, text: string): Promise<Record<string, unknown>[]> {
  if (config.kind === "sqlite") {
    const db = new SQLite(config.file);
    try {
      return db.prepare(text).all() as Record<string, unknown>[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: config.url });
  await client.connect();
  try {
    const result = await client.query(text);
    return Array.isArray(result) ? [] : (result.rows as Record<string, unknown>[]);
  } finally {
    await client.end();
  }
}

/** The schema a test URL's connections use (backends.ts puts it in `options=-c search_path=NAME`). */
export function schemaOf(url: string): string {
  const name = /search_path=(\w+)/.exec(new URL(url).searchParams.get("options") ?? "")?.[1];
  if (!name) throw new Error(`no search_path in ${url}`);
  return name;
}
