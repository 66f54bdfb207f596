// How the webhook sender learns that deliveries were queued without asking the database after
// every commit: the store's enqueue counts (store/queries/webhooks.ts enqueuedTally), and a
// transaction that moved the count wakes the sender once it has committed (never before: another
// connection would not see the rows yet, and a rolled-back change queued nothing). A transaction
// of another request that overlaps may wake it too: a look at the queue, never a missed one.
import { enqueuedTally } from "../../store/queries/webhooks.js";
import type { Store } from "../../store/store.js";

/** `store`, whose transactions call `wake` after committing when deliveries were queued meanwhile. */
export function wakingOnWebhooks(store: Store, wake: () => void): Store {
  return {
    ...store,
    async transaction(work) {
      const before = enqueuedTally.count;
      const result = await store.transaction(work);
      if (enqueuedTally.count !== before) wake();
      return result;
    },
  };
}
