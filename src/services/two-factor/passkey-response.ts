// The browser's answers to a passkey ceremony (the JSON of a PublicKeyCredential), checked for
// shape before @simplewebauthn/server checks their content.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { PASSKEY_RESPONSE_MAX, passkeyRejected } from "../../domain/passkey.js";

/** The browser's answer to a creation, as the library reads it. @throws ValidationError PASSKEY_REJECTED */
export function parseRegistration(text: string): RegistrationResponseJSON {
  const value = parseCredential(text);
  const response = value.response as Record<string, unknown>;
  if (typeof response.attestationObject !== "string") throw passkeyRejected();
  if (response.transports !== undefined && !isStringArray(response.transports)) throw passkeyRejected();
  return value as unknown as RegistrationResponseJSON;
}

/** The browser's answer to a request, as the library reads it. @throws ValidationError PASSKEY_REJECTED */
export function parseAuthentication(text: string): AuthenticationResponseJSON {
  const value = parseCredential(text);
  const response = value.response as Record<string, unknown>;
  if (typeof response.authenticatorData !== "string" || typeof response.signature !== "string") throw passkeyRejected();
  if (response.userHandle !== undefined && response.userHandle !== null && typeof response.userHandle !== "string")
    throw passkeyRejected();
  if (response.userHandle === null) delete response.userHandle;
  return value as unknown as AuthenticationResponseJSON;
}

/** The fields both answers share, checked for shape (the library checks their content). */
function parseCredential(text: string): Record<string, unknown> & { response: { clientDataJSON: string } } {
  if (text.length === 0 || text.length > PASSKEY_RESPONSE_MAX) throw passkeyRejected();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw passkeyRejected();
  }
  if (!isRecord(value) || !isRecord(value.response)) throw passkeyRejected();
  const { id, rawId, type, response } = value;
  if (typeof id !== "string" || id.length > 1400 || typeof rawId !== "string" || type !== "public-key")
    throw passkeyRejected();
  if (typeof response.clientDataJSON !== "string") throw passkeyRejected();
  if (!isRecord(value.clientExtensionResults)) value.clientExtensionResults = {};
  return value as Record<string, unknown> & { response: { clientDataJSON: string } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}
