import { ConnectError, type Interceptor } from "@connectrpc/connect";
import { transformErrors } from "./transform-errors.js";

/** Characters kept of an error message, and of each string inside an error detail. */
export const MAX_ERROR_TEXT = 1024;
/** Items kept of each list inside an error detail (the ids a request named wrongly, say). */
export const MAX_ERROR_ITEMS = 100;

/**
 * gRPC carries an error in trailers (`grpc-message`, and `grpc-status-details-bin` holding the
 * message again with the details), and HTTP/2 peers refuse large header blocks: an error that
 * echoes a 200 KB input (an unknown id, a bad tag) resets the stream, and the caller sees
 * Internal instead of the NotFound or InvalidArgument a Connect caller gets in the body. Every
 * protocol therefore gets the error with its message and detail strings cut to MAX_ERROR_TEXT and
 * its detail lists to MAX_ERROR_ITEMS.
 * Outermost, so errors of every interceptor are bounded.
 */
export const boundErrorSize: Interceptor = transformErrors((err) => (err instanceof ConnectError ? bounded(err) : err));

function bounded(err: ConnectError): ConnectError {
  let changed = false;
  const cut = (text: string): string => {
    if (text.length <= MAX_ERROR_TEXT) return text;
    changed = true;
    // Never between the halves of a surrogate pair: a lone surrogate makes gRPC's
    // percent-encoding of grpc-message throw, and the caller would get Internal again.
    const high = text.charCodeAt(MAX_ERROR_TEXT - 1);
    const end = high >= 0xd800 && high <= 0xdbff ? MAX_ERROR_TEXT - 1 : MAX_ERROR_TEXT;
    return `${text.slice(0, end)}… (${text.length - end} more characters)`;
  };
  const cutDeep = (value: unknown): unknown => {
    if (typeof value === "string") return cut(value);
    if (Array.isArray(value)) {
      if (value.length > MAX_ERROR_ITEMS) changed = true;
      return value.slice(0, MAX_ERROR_ITEMS).map(cutDeep);
    }
    if (value !== null && typeof value === "object" && !(value instanceof Uint8Array) && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutDeep(v)]));
    }
    return value;
  };
  const message = cut(err.rawMessage);
  // Outgoing details are { desc, value } with a message init shape; received ones (a peer's error passed on) are bytes, bounded by that peer.
  const details = err.details.map((d) => ("desc" in d ? { desc: d.desc, value: cutDeep(d.value) as typeof d.value } : d));
  if (!changed) return err;
  const out = new ConnectError(message, err.code, err.metadata, undefined, err.cause);
  out.details.push(...details);
  return out;
}
