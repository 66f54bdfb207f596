// A transaction knows it is running, so that a second one started inside it fails at once instead
// of waiting forever. On SQLite the inner transaction would queue behind the outer one in the write
// batch (sqlite/write-batch.ts), and a read would wait for the one connection the outer one holds;
// on PostgreSQL the inner one would take a second pooled connection, commit on its own whatever the
// outer one does, and wait on the outer one's row locks. Use the `tx` you were given instead.
//
// The check rests on AsyncLocalStorage, which on Node 20 turns on promise hooks for the whole process
// at its first run: every promise then pays, and writes served about a fifth fewer requests. So it
// is made where the code is exercised, in the tests (openTestStore), and `kairan serve` and the
// commands open their store without it (docs/architecture.md "The nested-transaction check runs in
// the tests").
import { AsyncLocalStorage } from "node:async_hooks";

/** A store's transaction or read was started inside a transaction of the same store. */
export class NestedTransactionError extends Error {
  override readonly name = "NestedTransactionError";
  constructor(what: "transaction" | "read") {
    super(`store.${what} was called inside a transaction of the same store: use the transaction's tx instead`);
  }
}

/** Whether a store refuses a transaction or read started inside one of its transactions (off by default). */
export interface NestingOptions {
  readonly checkNesting?: boolean;
}

/** One open transaction; `open` turns false once its work has settled. */
interface Scope {
  open: boolean;
}

/** The transactions of one store: what runs inside them, and the check at every entry. */
export class TransactionScope {
  readonly #current: AsyncLocalStorage<Scope> | undefined;

  /** `checking`: false makes a scope that checks nothing and costs nothing. */
  constructor(checking: boolean) {
    this.#current = checking ? new AsyncLocalStorage<Scope>() : undefined;
  }

  /** Runs `work` as one of this store's transactions (the caller has made the check). */
  enter<T>(work: () => Promise<T>): Promise<T> {
    if (this.#current === undefined) return work();
    const scope: Scope = { open: true };
    return this.#current.run(scope, async () => {
      try {
        return await work();
      } finally {
        scope.open = false;
      }
    });
  }

  /**
   * @throws NestedTransactionError when called from inside a running transaction of this store (a
   * promise started there and left to run after it settled is no longer inside it)
   */
  check(what: "transaction" | "read"): void {
    if (this.#current?.getStore()?.open === true) throw new NestedTransactionError(what);
  }
}
