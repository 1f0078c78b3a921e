// Storage settings of the media service, from the environment:
// STORAGE_URL (file path / file:// URL, or s3://bucket[/prefix]; default
// <DATA_DIR>/blobs), STORAGE_SIGNING_SECRET (HMAC key of gateway-served URLs;
// when absent it is generated once and kept under DATA_DIR, which suits the
// embedded composition — replicas must share one), PUBLIC_BASE_URL (origin
// put in front of gateway URLs; empty: root-relative URLs), the lifetimes, and
// the blob-intent sweep (grace period and interval).
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { positiveIntegerFromEnv } from "@signage/runtime";

export interface MediaStorageConfig {
  storageUrl: string;
  /** Read (or created under DATA_DIR) on first use. */
  signingSecret: () => string;
  publicBaseUrl: string;
  /** Lifetime of presigned part URLs and of the session itself. */
  uploadTtlMs: number;
  /** Download URLs live for one to two of these windows (stable within a window, so they cache). */
  downloadUrlWindowMs: number;
  /** Largest chunk of a chunked upload (returned by init as maxChunkSize). */
  maxChunkSize: number;
  /** How often expired upload sessions are swept. */
  sweepIntervalMs: number;
  /** Age after which a blob intent is taken for a crash's leftover: longer than the longest legitimate upload. */
  blobIntentGraceMs: number;
  /** How often stale blob intents (and their blobs) are swept. */
  blobIntentSweepIntervalMs: number;
}

type Env = Record<string, string | undefined>;

/** Reads the secret kept under DATA_DIR, or creates it (first writer wins when processes race). */
function persistedSecret(dataDir: string): string {
  const file = join(dataDir, "storage-signing-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString("hex"), { flag: "wx", mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    return readFileSync(file, "utf8").trim();
  }
}

/** S3 (SigV4) presigned URLs live at most a week; a session's part URLs live as long as it. */
const S3_MAX_PRESIGN_MS = 7 * 24 * 60 * 60 * 1000;

/** Fails at start-up rather than on every init (the signer refuses the URLs after the session opened). */
function uploadTtl(env: Env, storageUrl: string): number {
  const ttl = positiveIntegerFromEnv(env, "UPLOAD_SESSION_TTL_MS", 24 * 60 * 60 * 1000);
  if (storageUrl.startsWith("s3://") && ttl > S3_MAX_PRESIGN_MS) {
    throw new Error(`UPLOAD_SESSION_TTL_MS must be at most ${S3_MAX_PRESIGN_MS} (7 days) with an s3:// STORAGE_URL: S3 presigned part URLs live at most a week, got '${env.UPLOAD_SESSION_TTL_MS}'`);
  }
  return ttl;
}

export function storageConfigFromEnv(env: Env): MediaStorageConfig {
  const dataDir = resolve(env.DATA_DIR || "./.data");
  const storageUrl = env.STORAGE_URL || join(dataDir, "blobs");
  return {
    storageUrl,
    signingSecret: () => env.STORAGE_SIGNING_SECRET || persistedSecret(dataDir),
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? "").replace(/\/+$/, ""),
    uploadTtlMs: uploadTtl(env, storageUrl),
    downloadUrlWindowMs: positiveIntegerFromEnv(env, "DOWNLOAD_URL_WINDOW_MS", 24 * 60 * 60 * 1000),
    maxChunkSize: positiveIntegerFromEnv(env, "UPLOAD_MAX_CHUNK_SIZE", 100 * 1024 * 1024),
    sweepIntervalMs: positiveIntegerFromEnv(env, "UPLOAD_SWEEP_INTERVAL_MS", 60_000),
    blobIntentGraceMs: positiveIntegerFromEnv(env, "BLOB_INTENT_GRACE_MS", 6 * 60 * 60 * 1000),
    blobIntentSweepIntervalMs: positiveIntegerFromEnv(env, "BLOB_INTENT_SWEEP_INTERVAL_MS", 5 * 60 * 1000),
  };
}
