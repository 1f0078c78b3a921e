// HMAC-signed URLs for blobs served by our own gateway (filesystem store):
// the signature covers the method, the logical resource (`part:<upload>/<n>`,
// `blob:<key>`) and every parameter, including the expiry, so none can be
// altered. Verification is constant-time.
import { createHmac, timingSafeEqual } from "node:crypto";

export type SignatureCheck = "ok" | "expired" | "invalid";

export class UrlSigner {
  private key: Buffer | undefined;

  /** A function is called on first use (e.g. to create a persisted secret only when needed). */
  constructor(private readonly secret: string | Uint8Array | (() => string | Uint8Array)) {
    if (typeof secret !== "function") this.key = UrlSigner.checked(secret);
  }

  private static checked(secret: string | Uint8Array): Buffer {
    const key = Buffer.from(secret);
    if (key.length < 16) throw new Error("URL signing secret must be at least 16 bytes");
    return key;
  }

  private get hmacKey(): Buffer {
    this.key ??= UrlSigner.checked((this.secret as () => string | Uint8Array)());
    return this.key;
  }

  /** `params` must include `expires` (Unix ms). */
  sign(method: string, resource: string, params: Record<string, string>): string {
    const canonical = [method.toUpperCase(), resource, ...Object.keys(params).sort().map((k) => `${k}=${params[k]}`)].join("\n");
    return createHmac("sha256", this.hmacKey).update(canonical).digest("base64url");
  }

  verify(method: string, resource: string, params: Record<string, string>, signature: string, now = Date.now()): SignatureCheck {
    const expected = Buffer.from(this.sign(method, resource, params));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid";
    const expires = Number(params.expires);
    if (!Number.isFinite(expires) || expires < now) return "expired";
    return "ok";
  }
}

/** Query string for a gateway-served URL: the params plus their signature. */
export function signedQuery(signer: UrlSigner, method: string, resource: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params);
  query.set("signature", signer.sign(method, resource, params));
  return query.toString();
}
