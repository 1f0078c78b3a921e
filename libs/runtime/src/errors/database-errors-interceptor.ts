// PostgreSQL errors that are the caller's or a concurrent request's doing, not ours, mapped
// once for every RPC of every service (anything else stays a logged 500):
// - an ADMIN may name any customerId; one that does not exist reaches a write as a foreign-key
//   violation on a `customer` reference: 404 with the customer error every service uses;
// - two transactions waiting on each other's rows (a folder delete and a move of a folder
//   inside it, say) are broken up by PostgreSQL, and one fails with nothing of it written:
//   409 (Aborted) saying so and to retry. Likewise a serialization failure;
// - a text value PostgreSQL cannot store (U+0000 in any string field a gRPC caller sends, or an
//   unpaired UTF-16 surrogate in a value stored as jsonb, which JSON.stringify escapes as
//   "\ud800" and jsonb refuses): 400 (InvalidArgument), nothing written, instead of a 500
//   for a field no rule checked.
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";

const FOREIGN_KEY_VIOLATION = "23503";
/** pg's detail: Key (customer_id)=(999999) is not present in table "customer". */
const MISSING_CUSTOMER = /^Key \([a-z_]+\)=\((\d+)\) is not present in table "customer"\.$/;
/** pg's SQLSTATEs for a transaction rolled back because of a concurrent one. */
const ROLLED_BACK_FOR_CONCURRENCY = new Set(["40P01" /* deadlock_detected */, "40001" /* serialization_failure */]);
/** pg's SQLSTATEs for text the database encoding cannot hold ("invalid byte sequence for encoding "UTF8": 0x00"). */
const UNSTORABLE_TEXT = new Set(["22021" /* character_not_in_repertoire */, "22P05" /* untranslatable_character */]);
/** invalid_text_representation, for jsonb input only when its detail is about a surrogate ("Unicode low surrogate must follow a high surrogate."). */
const INVALID_TEXT_REPRESENTATION = "22P02";
const UNPAIRED_SURROGATE = /surrogate/i;

/** The API error a database error stands for, or undefined when it is a fault of ours. */
export function serviceErrorOf(error: unknown): ConnectError | undefined {
  const e = error as { code?: unknown; detail?: unknown } | null;
  if (typeof e?.code !== "string") return undefined;
  if (ROLLED_BACK_FOR_CONCURRENCY.has(e.code)) {
    return serviceError(Code.Aborted, "request.error.concurrentUpdate", "The request conflicted with a concurrent change to the same resources and was rolled back; nothing was changed. Retry it.");
  }
  if (UNSTORABLE_TEXT.has(e.code) || (e.code === INVALID_TEXT_REPRESENTATION && typeof e.detail === "string" && UNPAIRED_SURROGATE.test(e.detail))) {
    return serviceError(Code.InvalidArgument, "request.error.invalidText", "A text value of the request contains a character that cannot be stored (the NUL character U+0000, or an unpaired UTF-16 surrogate such as \\ud800); nothing was changed.");
  }
  const missing = e.code === FOREIGN_KEY_VIOLATION && typeof e.detail === "string" ? MISSING_CUSTOMER.exec(e.detail) : null;
  if (missing) {
    const customerId = Number(missing[1]);
    return serviceError(Code.NotFound, "customer.error.notFound", `Customer ${customerId} not found`, { id: customerId });
  }
  return undefined;
}

export const databaseErrorsInterceptor: Interceptor = (next) => async (req) => {
  try {
    return await next(req);
  } catch (e) {
    throw serviceErrorOf(e) ?? e;
  }
};
