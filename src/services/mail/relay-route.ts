// Which transport the sender delivers a claimed batch through. The server's route reads the saved
// relay and From with each claim (services/settings/mail-relay.ts) and, when they changed since
// the last batch, closes the old transport and opens one for the new settings: a save in
// /admin/settings reaches the next message without a restart, in every process.
import type { MailConfig } from "../../config/mail.js";
import type { Tx } from "../../store/store.js";
import {
  type MailRelayContext,
  type StoredMailRelay,
  mailConfigOf,
  mailRelayOf,
  storedMailRelayIn,
} from "../settings/mail-relay.js";
import { openMailTransport } from "./open-transport.js";
import type { MailTransport } from "./transport.js";

/** How the sender finds its transport: something read with each claim, then the transport for it. */
export interface MailRoute<Read = unknown> {
  /** Read inside the claim's transaction. */
  readIn(tx: Tx): Promise<Read>;
  /** The transport for what readIn read; the previous one is closed when it is replaced. */
  transportFor(read: Read): Promise<MailTransport>;
  /** Every password of every transport opened so far: never written to a log or `last_error`. */
  readonly secrets: readonly string[];
  close(): void;
}

/** Always `transport` (a test's, or a command's). */
export function fixedRoute(transport: MailTransport): MailRoute<undefined> {
  return {
    readIn: async () => undefined,
    transportFor: async () => transport,
    get secrets() {
      return transport.secrets;
    },
    close: () => transport.close(),
  };
}

/**
 * The server's route: the saved relay and From over `defaults` (the options), pooled. Batches are
 * delivered one after the other, so the transport replaced has nothing in flight when it closes.
 */
export function savedRelayRoute(
  ctx: MailRelayContext,
  defaults: MailConfig,
  dataDir: string,
): MailRoute<StoredMailRelay> {
  let current: { readonly key: string; readonly transport: MailTransport } | undefined;
  const secrets = new Set<string>();
  return {
    readIn: (tx) => storedMailRelayIn(tx),
    async transportFor(stored) {
      // The sealed value is compared, not opened: it changes with every save of the URL.
      const key = JSON.stringify([stored.sealedUrl ?? null, stored.from ?? null]);
      if (current?.key === key) return current.transport;
      const relay = await mailRelayOf(ctx, defaults, stored);
      const transport = openMailTransport(mailConfigOf(defaults, relay), dataDir, true);
      for (const secret of transport.secrets) secrets.add(secret);
      current?.transport.close();
      current = { key, transport };
      return transport;
    },
    get secrets() {
      return [...secrets];
    },
    close: () => current?.transport.close(),
  };
}
