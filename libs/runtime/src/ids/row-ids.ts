// Row ids that callers send as int64 (gRPC/Connect callers reach services without the gateway's
// range checks). Our ids are positive and read back as JS numbers (libs/db parses int8 only up to
// 2^53-1), so outside 1..2^53-1 no row can have the id; and Number() would round such an id onto
// another one (2^53+1 -> 2^53) or overflow PostgreSQL's bigint (a 500). Such an id is the
// resource's 404 (or the caller's 400), naming the id as sent.
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";

const MAX_ROW_ID = BigInt(Number.MAX_SAFE_INTEGER);

/** The id as a number, or `refuse(id as sent)` thrown when no row can have it. */
export function rowIdOf(id: bigint, refuse: (sent: string) => Error): number {
  if (id < 1n || id > MAX_ROW_ID) throw refuse(id.toString());
  return Number(id);
}

/** A customer id from an int64 request field (404 `customer.error.notFound` when none can have it). */
export function customerIdOf(id: bigint): number {
  return rowIdOf(id, (sent) => serviceError(Code.NotFound, "customer.error.notFound", `Customer ${sent} not found`, { id: sent }));
}
