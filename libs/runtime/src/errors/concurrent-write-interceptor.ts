// Two transactions that wait on each other's rows (a folder delete and a move of a folder inside
// it, say) are broken up by PostgreSQL: one of them fails with deadlock_detected, and nothing of
// it was written. That is a conflict with a concurrent request, not a server fault: 409 with a
// clear "retry" (Aborted), instead of a 500, for every RPC of every service.
import { Code, type Interceptor } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";

/** pg's SQLSTATEs for a transaction rolled back because of a concurrent one. */
const ROLLED_BACK_FOR_CONCURRENCY = new Set(["40P01" /* deadlock_detected */, "40001" /* serialization_failure */]);

export function isConcurrentWriteConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && ROLLED_BACK_FOR_CONCURRENCY.has(code);
}

export const concurrentWriteInterceptor: Interceptor = (next) => async (req) => {
  try {
    return await next(req);
  } catch (e) {
    if (isConcurrentWriteConflict(e)) {
      throw serviceError(Code.Aborted, "request.error.concurrentUpdate", "The request conflicted with a concurrent change to the same resources and was rolled back; nothing was changed. Retry it.");
    }
    throw e;
  }
};
