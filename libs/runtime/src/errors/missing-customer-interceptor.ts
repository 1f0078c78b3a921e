// An ADMIN may name any customerId; one that does not exist reaches a write as a foreign-key
// violation on a `customer` reference. That is the caller's mistake, not ours: 404 with the
// customer error every service uses, instead of a 500, for every RPC of every service.
import { Code, type Interceptor } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";

const FOREIGN_KEY_VIOLATION = "23503";
/** pg's detail: Key (customer_id)=(999999) is not present in table "customer". */
const MISSING_CUSTOMER = /^Key \([a-z_]+\)=\((\d+)\) is not present in table "customer"\.$/;

function missingCustomerId(error: unknown): number | undefined {
  const e = error as { code?: unknown; detail?: unknown } | null;
  if (e?.code !== FOREIGN_KEY_VIOLATION || typeof e.detail !== "string") return undefined;
  const match = MISSING_CUSTOMER.exec(e.detail);
  return match ? Number(match[1]) : undefined;
}

export const missingCustomerInterceptor: Interceptor = (next) => async (req) => {
  try {
    return await next(req);
  } catch (e) {
    const customerId = missingCustomerId(e);
    if (customerId !== undefined) throw serviceError(Code.NotFound, "customer.error.notFound", `Customer ${customerId} not found`, { id: customerId });
    throw e;
  }
};
