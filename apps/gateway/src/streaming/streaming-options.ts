export interface StreamingOptions {
  /** Ceiling for any streamed request body (services enforce their own, lower limits). */
  maxBodyBytes: number;
  /** Bytes per chunk message sent to the service. */
  chunkBytes: number;
  /** How long an answered upload may keep sending before the connection is cut. */
  drainTimeoutMs: number;
}

export const DEFAULT_STREAMING_OPTIONS: StreamingOptions = {
  // The largest documented upload: a chunked upload's total of 10737418240 bytes.
  maxBodyBytes: 10 * 1024 * 1024 * 1024,
  chunkBytes: 1024 * 1024,
  drainTimeoutMs: 10_000,
};
