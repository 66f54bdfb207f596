import type { Generated } from "kysely";

/** An account's passkeys (migration 0041): the public key and what the authenticator said of it. */
export interface PasskeysTable {
  id: Generated<number>;
  user_id: number;
  /** base64url; unique across the site. */
  credential_id: string;
  /** base64url of the COSE public key. */
  public_key: string;
  counter: number;
  /** Comma-separated transports. */
  transports: string;
  /** 0/1 */
  multi_device: number;
  /** 0/1 */
  backed_up: number;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** Passkey challenges already answered (migration 0041), kept until they expire: each is accepted once. */
export interface PasskeyChallengesUsedTable {
  challenge_hash: string;
  expires_at: number;
}
