import type { Context } from "koa";

/**
 * Aborted when the client goes away before the response is complete: the call it started (a
 * streamed upload or download, an RPC, a login waiting for its password check) is abandoned.
 * (The request's own 'close' fires once its body has been read, so it cannot tell.)
 */
export function responseAbortSignal(ctx: Context): AbortSignal {
  const controller = new AbortController();
  ctx.res.once("close", () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  return controller.signal;
}
