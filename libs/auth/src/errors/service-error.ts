import { ConnectError, type Code } from "@connectrpc/connect";
import type { JsonObject } from "@bufbuild/protobuf";
import { ErrorDetailSchema } from "@signage/contracts/signage/common/v1/error_pb";

/** The `{ key, details }` pair the gateway renders into the error body. */
export interface ErrorInfo {
  key: string;
  details: JsonObject;
}

/**
 * A ConnectError carrying the ErrorDetail every service error must have
 * (error.proto): the gateway maps (code, key) to the HTTP status and body.
 */
export function serviceError(code: Code, key: string, message: string, details: JsonObject = {}): ConnectError {
  return new ConnectError(message, code, undefined, [{ desc: ErrorDetailSchema, value: { key, details } }]);
}

/** Reads the ErrorDetail back from an error (server-side or received by a client); undefined when absent. */
export function readErrorDetail(err: unknown): ErrorInfo | undefined {
  const detail = ConnectError.from(err).findDetails(ErrorDetailSchema)[0];
  return detail ? { key: detail.key, details: detail.details ?? {} } : undefined;
}
