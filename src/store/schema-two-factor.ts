import type { Generated } from "kysely";

/** An account's TOTP secret (migration 0038), sealed; on once confirmed. */
export interface TotpSecretsTable {
  user_id: number;
  /** Sealed with the site's `totp-secret` key (auth/secret-box.ts); never the secret itself. */
  secret: string;
  created_at: number;
  confirmed_at: number | null;
  last_step: number | null;
}

/** An account's single-use recovery codes (migration 0038): only each code's SHA-256. */
export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

/** Accounts an administrator requires to sign in with a second factor (migration 0038). */
export interface TwoFactorRequirementsTable {
  user_id: number;
  required_at: number;
  required_by: number | null;
}
