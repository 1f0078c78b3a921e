// Bounds that keep a hostile ZIP from exhausting disk, memory or CPU.
export interface ZipLimits {
  /** Bytes of the uploaded ZIP itself. */
  maxUploadBytes: number;
  maxEntries: number;
  /** Sum of the uncompressed sizes of all entries (counted while inflating). */
  maxTotalUncompressedBytes: number;
  /** Uncompressed / compressed per entry, applied once an entry exceeds `ratioFloorBytes`. */
  maxCompressionRatio: number;
  ratioFloorBytes: number;
  /** config.json is read into memory. */
  maxConfigBytes: number;
  maxEntryNameLength: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxUploadBytes: 100 * 1024 * 1024,
  maxEntries: 5_000,
  maxTotalUncompressedBytes: 500 * 1024 * 1024,
  maxCompressionRatio: 100,
  ratioFloorBytes: 1024 * 1024,
  maxConfigBytes: 1024 * 1024,
  maxEntryNameLength: 1024,
};

/** Overrides from the environment (`CUSTOM_APP_MAX_UPLOAD_BYTES`, `CUSTOM_APP_MAX_UNCOMPRESSED_BYTES`, `CUSTOM_APP_MAX_ENTRIES`). */
export function zipLimitsFromEnv(env: Record<string, string | undefined>): Partial<ZipLimits> {
  const limits: Partial<ZipLimits> = {};
  const read = (name: string) => {
    const value = Number(env[name]);
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  };
  const upload = read("CUSTOM_APP_MAX_UPLOAD_BYTES");
  const uncompressed = read("CUSTOM_APP_MAX_UNCOMPRESSED_BYTES");
  const entries = read("CUSTOM_APP_MAX_ENTRIES");
  if (upload) limits.maxUploadBytes = upload;
  if (uncompressed) limits.maxTotalUncompressedBytes = uncompressed;
  if (entries) limits.maxEntries = entries;
  return limits;
}
