// The gateway-served presigned URLs (filesystem store parts, and blob
// downloads for any store): how they are built and checked. The owning
// service verifies them in its PUBLIC RPCs behind PRESIGNED_*_PATH.
// A prefix token signs a whole key prefix instead of one key (a private app's
// unpacked files: relative URLs inside its HTML resolve under one signed prefix).
import { signedQuery, type SignatureCheck, type UrlSigner } from "./url-signer.js";
import { decodeKeySegment, encodeKeySegment, PRESIGNED_BLOB_PATH, PRESIGNED_PART_PATH } from "./filesystem/fs-paths.js";

export interface PresignedPartQuery {
  uploadId: string;
  partNumber: number;
  expires: string;
  maxSize?: string;
  signature: string;
}

export interface PresignedBlobQuery {
  blob: string;
  expires: string;
  filename?: string;
  contentType?: string;
  signature: string;
}

function partParams(query: { expires: string; maxSize?: string }): Record<string, string> {
  return query.maxSize === undefined ? { expires: query.expires } : { expires: query.expires, maxSize: query.maxSize };
}

function blobParams(query: { expires: string; filename?: string; contentType?: string }): Record<string, string> {
  const params: Record<string, string> = { expires: query.expires };
  if (query.filename) params.filename = query.filename;
  if (query.contentType) params.contentType = query.contentType;
  return params;
}

/** `baseUrl` may be "" for root-relative URLs (resolved against the gateway the client called). */
export function presignedPartUrl(signer: UrlSigner, baseUrl: string, uploadId: string, partNumber: number, expiresAt: number, maxSize?: number): string {
  const params = partParams({ expires: String(expiresAt), maxSize: maxSize === undefined ? undefined : String(maxSize) });
  return `${baseUrl}${PRESIGNED_PART_PATH}/${uploadId}/${partNumber}?${signedQuery(signer, "PUT", `part:${uploadId}/${partNumber}`, params)}`;
}

export function presignedBlobUrl(signer: UrlSigner, baseUrl: string, key: string, expiresAt: number, extra: { filename?: string; contentType?: string } = {}): string {
  const params = blobParams({ expires: String(expiresAt), ...extra });
  return `${baseUrl}${PRESIGNED_BLOB_PATH}/${encodeKeySegment(key)}?${signedQuery(signer, "GET", `blob:${key}`, params)}`;
}

export function verifyPresignedPart(signer: UrlSigner, query: PresignedPartQuery, now?: number): SignatureCheck {
  return signer.verify("PUT", `part:${query.uploadId}/${query.partNumber}`, partParams(query), query.signature, now);
}

export function verifyPresignedBlob(signer: UrlSigner, query: PresignedBlobQuery, now?: number): { check: SignatureCheck; key: string } {
  const key = decodeCanonicalKeySegment(query.blob);
  if (key === undefined) return { check: "invalid", key: "" };
  return { check: signer.verify("GET", `blob:${key}`, blobParams(query), query.signature, now), key };
}

/**
 * The key of a segment in the encoding we issue, else undefined. Node's decoder skips what is not
 * base64url (`=`, `+`, `/`, spaces), so without this one signed key would have many URLs, and an
 * alias could slip past a block or a cache keyed on the URL (RFC 4648 §3.3: data with characters
 * outside the base alphabet MUST be rejected).
 */
function decodeCanonicalKeySegment(segment: string): string | undefined {
  const key = decodeKeySegment(segment);
  return encodeKeySegment(key) === segment ? key : undefined;
}

/**
 * `<base64url(prefix)>.<expires>.<signature>`: one URL path segment (base64url and digits have
 * no "." or "/"). The HMAC covers the prefix and the expiry under its own resource name
 * (`prefix:`), so a blob or part signature can never be replayed as a prefix token.
 */
export function presignedPrefixToken(signer: UrlSigner, prefix: string, expiresAt: number): string {
  const expires = String(expiresAt);
  return `${encodeKeySegment(prefix)}.${expires}.${signer.sign("GET", `prefix:${prefix}`, { expires })}`;
}

/** The signed prefix and expiry (Unix ms), or "invalid" for a token that is malformed or altered, "expired" past its expiry. */
export function verifyPresignedPrefixToken(signer: UrlSigner, token: string, now?: number): { check: SignatureCheck; prefix: string; expiresAt: number } {
  const parts = token.split(".");
  if (parts.length !== 3 || !/^\d{1,16}$/.test(parts[1])) return { check: "invalid", prefix: "", expiresAt: 0 };
  const [encoded, expires, signature] = parts;
  const prefix = decodeCanonicalKeySegment(encoded);
  if (prefix === undefined) return { check: "invalid", prefix: "", expiresAt: 0 };
  return { check: signer.verify("GET", `prefix:${prefix}`, { expires }, signature, now), prefix, expiresAt: Number(expires) };
}
