// Picks the adapter from STORAGE_URL: `s3://bucket[/prefix]` -> S3 (endpoint
// from AWS_ENDPOINT_URL_S3, path-style for local servers), anything else
// (`file:///abs/dir`, or a plain directory path) -> the filesystem, synced in the
// background every STORAGE_FLUSH_BEHIND_MB (0..1024, default 8; 0: only once written).
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";
import type { BlobStore } from "./blob-store.js";
import { createFilesystemBlobStore } from "./filesystem/filesystem-blob-store.js";
import type { S3Settings } from "./s3/s3-blob-store.js";
import { lazyBlobStore } from "./lazy-blob-store.js";
import type { UrlSigner } from "./url-signer.js";

export interface BlobStoreFromUrlOptions {
  /** Signs gateway-served URLs (filesystem store). */
  signer?: UrlSigner;
  /** S3 client settings; defaults from the AWS_* environment. */
  s3?: Partial<S3Settings>;
  env?: Record<string, string | undefined>;
}

export function createBlobStoreFromUrl(url: string, options: BlobStoreFromUrlOptions = {}): BlobStore {
  const env = options.env ?? process.env;
  if (url.startsWith("s3://")) {
    const parsed = new URL(url);
    const prefix = parsed.pathname.replace(/^\/+|\/+$/g, "");
    // The AWS SDK (~25 MB resident) loads only when an s3:// store is used.
    return lazyBlobStore("external", async () => (await import("./s3/s3-blob-store.js")).createS3BlobStore({
      bucket: parsed.hostname,
      prefix,
      endpoint: options.s3?.endpoint ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL,
      region: options.s3?.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? "us-east-1",
      forcePathStyle: options.s3?.forcePathStyle ?? (env.AWS_S3_FORCE_PATH_STYLE !== undefined ? env.AWS_S3_FORCE_PATH_STYLE === "true" : Boolean(env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL)),
      // Explicit keys from the given environment (a module's env need not be process.env); else the SDK's chain.
      credentials: options.s3?.credentials ?? (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN } : undefined),
    }), 5 * 1024 * 1024);
  }
  const root = url.startsWith("file://") ? fileURLToPath(url) : resolve(url);
  return createFilesystemBlobStore({ root, signer: options.signer, flushBehindBytes: flushBehindBytesFromEnv(env) });
}

/** STORAGE_FLUSH_BEHIND_MB: whole MiB from 0 (no background sync) to 1024; unset: the store's default. */
function flushBehindBytesFromEnv(env: Record<string, string | undefined>): number | undefined {
  const raw = env.STORAGE_FLUSH_BEHIND_MB;
  if (raw === undefined || raw === "") return undefined;
  const mib = Number(raw);
  if (!Number.isInteger(mib) || mib < 0 || mib > 1024) throw new Error(`STORAGE_FLUSH_BEHIND_MB must be a whole number of MiB from 0 to 1024, got '${raw}'`);
  return mib * 1024 * 1024;
}
