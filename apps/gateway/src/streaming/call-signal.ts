import type { Context } from "koa";

/**
 * Aborted when the client goes away before the response is complete. (The
 * request's own 'close' fires once its body has been read, so it cannot tell.)
 */
export function responseAbortSignal(ctx: Context): AbortSignal {
  const controller = new AbortController();
  ctx.res.once("close", () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * After an early answer (error before the whole upload arrived), keep reading
 * and discarding what the client still sends, so it sees the response rather
 * than a reset; cut the connection if it goes on too long.
 */
export function drainRequestAfterResponse(ctx: Context, timeoutMs: number): void {
  if (ctx.req.readableEnded) return;
  // No `Connection: close`: Node would then destroy the socket right after the
  // response while the client is still sending, and the client would see a
  // reset instead of the answer.
  ctx.req.resume();
  const timer = setTimeout(() => ctx.req.socket.destroy(), timeoutMs);
  timer.unref();
  ctx.req.once("end", () => clearTimeout(timer));
  ctx.req.once("close", () => clearTimeout(timer));
}
