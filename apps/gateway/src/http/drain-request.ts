import type { Context } from "koa";

/**
 * After an early answer (an error, or a service that answered before the whole
 * upload arrived), keep reading and discarding what the client still sends, so
 * it sees the response and its keep-alive connection stays usable; cut the
 * connection if it goes on too long. A reader still attached (an async
 * iterator being closed) only delays the draining until it lets go.
 */
export function drainRequestAfterResponse(ctx: Context, timeoutMs: number): void {
  const req = ctx.req;
  if (req.readableEnded || req.destroyed) return;
  // No `Connection: close`: Node would then destroy the socket right after the
  // response while the client is still sending, and the client would see a
  // reset instead of the answer.
  // A 'data' listener makes the stream flow as soon as the last 'readable' listener is gone.
  req.on("data", discard);
  req.resume();
  const timer = setTimeout(() => req.socket.destroy(), timeoutMs);
  timer.unref();
  req.once("end", () => clearTimeout(timer));
  req.once("close", () => clearTimeout(timer));
}

function discard(): void {}

const CLIENT_GONE = new Set(["ECONNRESET", "EPIPE", "ERR_STREAM_PREMATURE_CLOSE"]);

/**
 * The exchange failed because the client closed its connection before sending the
 * whole request (a reset, or an end Node's HTTP parser reports as HPE_*), or before the
 * whole response was sent (a download cut off, a reset while its answer was on the way):
 * nobody to answer, nothing to log as a server failure.
 */
export function clientWentAway(ctx: Context, err: unknown): boolean {
  const code = String((err as { code?: unknown } | null)?.code ?? "");
  if (!ctx.req.complete) return CLIENT_GONE.has(code) || code.startsWith("HPE_") || ctx.req.destroyed;
  return CLIENT_GONE.has(code) && !ctx.res.writableFinished;
}
