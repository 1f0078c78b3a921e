// The one place where an RPC failure becomes an HTTP status. Services raise
// ConnectError with a code and an ErrorDetail { key, details }; most codes map
// directly, and a few documented keys override the code's default.
import { Code } from "@connectrpc/connect";

export const STATUS_BY_CODE: Record<Code, number> = {
  [Code.Canceled]: 499,
  [Code.Unknown]: 500,
  [Code.InvalidArgument]: 400,
  [Code.DeadlineExceeded]: 504,
  [Code.NotFound]: 404,
  [Code.AlreadyExists]: 409,
  [Code.PermissionDenied]: 403,
  [Code.ResourceExhausted]: 429,
  [Code.FailedPrecondition]: 409,
  [Code.Aborted]: 409,
  [Code.OutOfRange]: 400,
  [Code.Unimplemented]: 501,
  [Code.Internal]: 500,
  [Code.Unavailable]: 503,
  [Code.DataLoss]: 500,
  [Code.Unauthenticated]: 401,
};

/** Keys whose documented status differs from their code's default. */
export const STATUS_BY_KEY: Record<string, number> = {
  // "A create that would exceed a resource limit returns HTTP 400 with key resourceLimit.error.limitReached"
  "resourceLimit.error.limitReached": 400,
  "upload.error.payloadTooLarge": 413,
  "media.error.unsupportedMediaType": 415,
  "storage.error.insufficientStorage": 507,
  "storage.error.rangeNotSatisfiable": 416,
};

export function httpStatusFor(code: Code, key: string | undefined): number {
  return (key !== undefined ? STATUS_BY_KEY[key] : undefined) ?? STATUS_BY_CODE[code] ?? 500;
}
