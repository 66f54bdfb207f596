// How the sender learns that mail was queued without asking the database after every commit:
// queueMail notes its transaction, and the store the application uses calls `wake` once such a
// transaction has committed (never before: on PostgreSQL the sender's connection would not see
// the rows yet, and a rolled-back transaction queued nothing).
import type { Store, Tx } from "../../store/store.js";

/** Transactions that queued mail; gone with the transaction object. */
const queuedIn = new WeakSet<Tx>();

/** Called by queueMail: `tx` holds a message to send once it commits. */
export function noteMailQueued(tx: Tx): void {
  queuedIn.add(tx);
}

/**
 * `store`, whose transactions call `wake` after committing when they queued mail. The cost per
 * transaction is a closure and a WeakSet lookup.
 */
export function wakingOnMail(store: Store, wake: () => void): Store {
  return {
    ...store,
    async transaction(work) {
      let used: Tx | undefined;
      const result = await store.transaction((tx) => {
        used = tx;
        return work(tx);
      });
      if (used !== undefined && queuedIn.has(used)) wake();
      return result;
    },
  };
}
