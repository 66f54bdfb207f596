import type { StoreConfig } from "../config/config.js";
import { openPostgresStore } from "./postgres/open.js";
import { openSqliteStore } from "./sqlite/open.js";
import type { Store } from "./store.js";

/** Opens the store the configuration names. */
export async function openStore(config: StoreConfig): Promise<Store> {
  switch (config.kind) {
    case "sqlite":
      return openSqliteStore(config.file, config.synchronous);
    case "postgres":
      return openPostgresStore({ url: config.url });
  }
}
