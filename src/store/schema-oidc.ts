/** An account linked to a provider's person (migration 0042). */
export interface OidcLinksTable {
  issuer: string;
  subject: string;
  user_id: number;
  created_at: number;
  used_at: number;
}

/** A single sign-on under way (migration 0042), named by the hash of its browser's cookie. */
export interface OidcSignInsTable {
  browser_hash: string;
  state: string;
  nonce: string;
  code_verifier: string;
  issuer: string;
  next: string;
  expires_at: number;
}
