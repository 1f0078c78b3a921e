// A signal that fires when the client goes away before its response was written: the call it
// started (and anything queued for it, such as a password check) is abandoned.
import type { Context } from "koa";

export function clientGoneSignal(ctx: Context): AbortSignal {
  const controller = new AbortController();
  ctx.req.once("close", () => {
    if (!ctx.res.writableEnded) controller.abort();
  });
  return controller.signal;
}
