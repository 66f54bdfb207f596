// Data that lives as long as one request (who the caller is, what a rate limit counted, the page
// chrome an error page reuses) is kept one way: a property under a module's own symbol on the
// request or reply object, through a slot below. Not a WeakMap keyed by the request: a WeakMap's
// entries go only at a full collection, and at thousands of requests a second the server's memory
// grew until one came; a property goes with its request.

/** One kind of per-request data: only the module that made the slot can read or write it. */
export interface RequestSlot<T> {
  /** The value kept on `holder` (a request or reply), undefined until set. */
  get(holder: object): T | undefined;
  set(holder: object, value: T): void;
}

/** A new slot; `name` only labels the symbol in a debugger. */
export function requestSlot<T>(name: string): RequestSlot<T> {
  const key = Symbol(name);
  type Holder = { [key]?: T };
  return {
    get: (holder) => (holder as Holder)[key],
    set: (holder, value) => {
      (holder as Holder)[key] = value;
    },
  };
}
