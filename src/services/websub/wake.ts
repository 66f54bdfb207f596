// How the hub learns of a commit in this process: every committed transaction of the server's
// store calls `wake` (the hub ignores it when it holds no subscription and the commit queued no
// job). Jobs queued are counted here, like the webhook queue's tally: the hub compares the count.
import type { Store } from "../../store/store.js";

/** Jobs queued in this process; the hub looks when the count moved. */
export const websubQueued = { count: 0 };

/** `store`, whose transactions call `wake` once committed. */
export function wakingOnWebSub(store: Store, wake: () => void): Store {
  return {
    ...store,
    async transaction(work) {
      const result = await store.transaction(work);
      wake();
      return result;
    },
  };
}
