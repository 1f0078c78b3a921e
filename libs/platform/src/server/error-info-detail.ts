import { ConnectError, type Interceptor } from "@connectrpc/connect";
import { ErrorInfoSchema } from "@signage/contracts/google/rpc/error_details_pb";
import { ErrorDetailSchema } from "@signage/contracts/signage/common/v1/error_pb";
import { transformErrors } from "./transform-errors.js";

/** `domain` of the google.rpc.ErrorInfo our errors carry; `reason` is the stable key. */
export const ERROR_INFO_DOMAIN = "signage";

/**
 * Every error carrying our ErrorDetail (key, details) gets a google.rpc.ErrorInfo beside it,
 * built from it: reason = key, metadata = the details' top-level fields (strings as they are,
 * anything else as JSON text). Clients in other languages find the reason where gRPC's
 * conventions put it, without our proto; the gateway keeps reading ErrorDetail. Inside
 * boundErrorSize, so the metadata strings are cut like every detail string.
 */
export const addErrorInfo: Interceptor = transformErrors((err) => {
  if (err instanceof ConnectError) withErrorInfo(err);
  return err;
});

function withErrorInfo(err: ConnectError): void {
  const detail = err.findDetails(ErrorDetailSchema)[0];
  // A peer's error passed on already carries the peer's ErrorInfo.
  if (!detail || err.findDetails(ErrorInfoSchema).length > 0) return;
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(detail.details ?? {})) {
    metadata[name] = typeof value === "string" ? value : JSON.stringify(value);
  }
  err.details.push({ desc: ErrorInfoSchema, value: { reason: detail.key, domain: ERROR_INFO_DOMAIN, metadata } });
}
