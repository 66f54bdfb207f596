import type { StoreConfig } from "../config/config.js";
import { openSqliteStore } from "./sqlite/open.js";
import type { Store } from "./store.js";

/** Opens the store the configuration names. */
export async function openStore(config: StoreConfig): Promise<Store> {
  switch (config.kind) {
    case "sqlite":
      return openSqliteStore(config.file);
    case "postgres":
      throw new Error("PostgreSQL support is not built yet; remove --database / KAIRAN_DATABASE_URL to use SQLite.");
  }
}
