import { ConnectError, type Interceptor } from "@connectrpc/connect";
import type { Logger } from "pino";

/**
 * connect-node turns a plain Error thrown by a handler into `Internal` for
 * the caller and logs nothing, so bugs would go unseen. Deliberate
 * ConnectErrors (NotFound, PermissionDenied...) are the API, not logged.
 * Innermost, so it runs inside the tracing span and the line gets trace ids.
 */
export function logUnexpectedErrors(logger: Logger): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (err) {
      if (!(err instanceof ConnectError)) {
        logger.error({ err, rpc: `${req.service.typeName}/${req.method.name}` }, "rpc handler failed");
      }
      throw err;
    }
  };
}
