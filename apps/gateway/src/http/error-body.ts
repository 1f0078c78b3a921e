// Renders any failure as the error body {"status","error","message","key","details"}.
// Unexpected errors never leak internals: they become a plain 500.
import { STATUS_CODES } from "node:http";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema } from "@signage/contracts/signage/common/v1/error_pb";
import { RestInputError, UnknownParameterError } from "../transcode/rest-input-error.js";
import { httpStatusFor, STATUS_BY_KEY } from "./error-table.js";

export interface ErrorBody {
  status: number;
  error: string;
  message: string;
  key: string;
  details: Record<string, unknown>;
}

/** An error raised by the gateway itself (not by a service). */
export class HttpError extends Error {
  constructor(readonly status: number, readonly key: string, message: string, readonly details: Record<string, unknown> = {}) {
    super(message);
  }
}

function body(status: number, key: string, message: string, details: Record<string, unknown> = {}): ErrorBody {
  return { status, error: STATUS_CODES[status] ?? "Error", message, key, details };
}

const DEFAULT_KEYS: Partial<Record<Code, string>> = {
  [Code.Unauthenticated]: "auth.error.unauthorized",
  [Code.PermissionDenied]: "auth.error.forbidden",
  [Code.NotFound]: "error.notFound",
  [Code.InvalidArgument]: "error.badRequest",
  [Code.Unimplemented]: "error.notImplemented",
  [Code.Unavailable]: "error.serviceUnavailable",
};

/** `error.<code>` in the keys' lowerCamelCase (error.internal, error.alreadyExists), like the named ones. */
function fallbackKey(code: Code): string {
  const name = Code[code];
  return `error.${name.charAt(0).toLowerCase()}${name.slice(1)}`;
}

/**
 * A service that could not be reached (the transport wrapped a socket error: `connect ECONNREFUSED
 * 10.0.3.7:50053`): its text names internal hosts and ports, so the client is told only that it is
 * unavailable (the log and the span keep the error). A service's own 503 keeps its message.
 */
function isConnectionFailure(err: ConnectError, key: string | undefined): boolean {
  return err.code === Code.Unavailable && !key && err.cause instanceof Error && !(err.cause instanceof ConnectError);
}

export function errorBodyFor(err: unknown): { body: ErrorBody; unexpected: boolean } {
  if (err instanceof UnknownParameterError) {
    return { body: body(400, "request.error.unknownParameter", err.message, { parameter: err.parameter, accepted: [...err.accepted] }), unexpected: false };
  }
  if (err instanceof RestInputError) return { body: body(400, "request.error.invalid", err.message, { where: err.where }), unexpected: false };
  if (err instanceof HttpError) return { body: body(err.status, err.key, err.message, err.details), unexpected: false };
  if (err instanceof ConnectError) {
    const detail = err.findDetails(ErrorDetailSchema)[0];
    const key = detail?.key || DEFAULT_KEYS[err.code] || fallbackKey(err.code);
    const status = httpStatusFor(err.code, detail?.key);
    // A 5xx the error table names by key (507 insufficient storage) is a documented outcome, not a failure to hide.
    const documented = detail?.key !== undefined && STATUS_BY_KEY[detail.key] !== undefined;
    const unexpected = status >= 500 && !documented && err.code !== Code.Unimplemented && err.code !== Code.Unavailable;
    const message = unexpected ? "Internal server error" : isConnectionFailure(err, detail?.key) ? "The service is unavailable; retry shortly" : err.rawMessage;
    return { body: body(status, key, message, (detail?.details as Record<string, unknown>) ?? {}), unexpected };
  }
  return { body: body(500, fallbackKey(Code.Internal), "Internal server error"), unexpected: true };
}
