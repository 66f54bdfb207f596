// A software passkey authenticator for tests over HTTP: makes P-256 credentials, answers creation
// and request options as a browser and an authenticator would (attestation "none", user present
// and verified, a signature counter), and reads the options a page gives passkeys.js.
import assert from "node:assert/strict";
import { type KeyObject, createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

interface Credential {
  readonly id: Buffer;
  readonly privateKey: KeyObject;
  readonly cose: Uint8Array;
  readonly rpId: string;
  readonly userHandle: string;
  counter: number;
}

/** The options (JSON) of the page's form `data-passkey-options`, the first one or the one with `id`. */
export function passkeyOptionsOfPage(html: string, id?: string): Record<string, unknown> {
  const forms = [...html.matchAll(/<form [^>]*data-passkey-options="([^"]*)"[^>]*>/g)];
  const form = id === undefined ? forms[0] : forms.find((match) => match[0].includes(`id="${id}"`));
  assert.ok(form, "the page offers a passkey form");
  const text = (form[1] ?? "")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
  return JSON.parse(text) as Record<string, unknown>;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

/** One authenticator holding discoverable credentials. */
export class SoftAuthenticator {
  readonly credentials: Credential[] = [];

  constructor(readonly origin: string) {}

  /** Answers creation options: a new credential (JSON as passkeys.js posts it). */
  create(options: Record<string, unknown>, overrides: { origin?: string; userVerified?: boolean } = {}): string {
    const rp = options.rp as { id: string };
    const user = options.user as { id: string };
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(Buffer.from(jwk.x ?? "", "base64url"))],
        [-3, new Uint8Array(Buffer.from(jwk.y ?? "", "base64url"))],
      ]),
    );
    const credential: Credential = {
      id: randomBytes(16),
      privateKey,
      cose,
      rpId: rp.id,
      userHandle: user.id,
      counter: 0,
    };
    const attested = Buffer.concat([
      Buffer.alloc(16),
      Buffer.from([0, credential.id.length]),
      credential.id,
      Buffer.from(cose),
    ]);
    const authData = Buffer.concat([
      this.authDataHead(rp.id, FLAG_UP | (overrides.userVerified === false ? 0 : FLAG_UV) | FLAG_AT, 0),
      attested,
    ]);
    const clientData = this.clientData("webauthn.create", options.challenge as string, overrides.origin);
    const fields = new Map<string, string | Map<string, string> | Uint8Array>();
    fields.set("fmt", "none");
    fields.set("attStmt", new Map<string, string>());
    fields.set("authData", new Uint8Array(authData));
    const attestationObject = isoCBOR.encode(fields);
    this.credentials.push(credential);
    return JSON.stringify({
      id: credential.id.toString("base64url"),
      rawId: credential.id.toString("base64url"),
      type: "public-key",
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientData.toString("base64url"),
        attestationObject: Buffer.from(attestationObject).toString("base64url"),
        transports: ["internal"],
      },
    });
  }

  /** Answers request options with a credential it holds for the RP (one allowed, if the options name any). */
  get(options: Record<string, unknown>, overrides: { credential?: Credential; origin?: string } = {}): string {
    const rpId = options.rpId as string;
    const allowed = ((options.allowCredentials ?? []) as { id: string }[]).map((c) => c.id);
    const credential =
      overrides.credential ??
      this.credentials.find(
        (c) => c.rpId === rpId && (allowed.length === 0 || allowed.includes(c.id.toString("base64url"))),
      );
    assert.ok(credential, "the authenticator holds a credential for this request");
    credential.counter += 1;
    const authData = this.authDataHead(credential.rpId, FLAG_UP | FLAG_UV, credential.counter);
    const clientData = this.clientData("webauthn.get", options.challenge as string, overrides.origin);
    const signed = Buffer.concat([authData, createHash("sha256").update(clientData).digest()]);
    return JSON.stringify({
      id: credential.id.toString("base64url"),
      rawId: credential.id.toString("base64url"),
      type: "public-key",
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientData.toString("base64url"),
        authenticatorData: authData.toString("base64url"),
        signature: sign("sha256", signed, credential.privateKey).toString("base64url"),
        userHandle: credential.userHandle,
      },
    });
  }

  private authDataHead(rpId: string, flags: number, counter: number): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([createHash("sha256").update(rpId).digest(), Buffer.from([flags]), count]);
  }

  private clientData(type: string, challenge: string, origin = this.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), "utf8");
  }
}
