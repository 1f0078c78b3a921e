import type { Interceptor } from "@connectrpc/connect";

/**
 * An interceptor applying `transform` to every error a call ends with: thrown by the handler
 * of a unary call, or raised while a streaming response is read. A server-streaming handler
 * is an async generator whose body runs only as connect reads the response, after the
 * interceptor's `await next(req)` has returned, so catching around it alone misses those.
 */
export function transformErrors(transform: (err: unknown) => unknown): Interceptor {
  return (next) => async (req) => {
    let res: Awaited<ReturnType<typeof next>>;
    try {
      res = await next(req);
    } catch (err) {
      throw transform(err);
    }
    if (!res.stream) return res;
    return { ...res, message: rethrowTransformed(res.message, transform) };
  };
}

async function* rethrowTransformed<T>(messages: AsyncIterable<T>, transform: (err: unknown) => unknown): AsyncIterable<T> {
  try {
    yield* messages;
  } catch (err) {
    throw transform(err);
  }
}
