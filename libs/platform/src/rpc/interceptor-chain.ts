import type { Interceptor, StreamRequest, StreamResponse, UnaryRequest, UnaryResponse } from "@connectrpc/connect";

export type AnyCall = (req: UnaryRequest | StreamRequest) => Promise<UnaryResponse | StreamResponse>;

/** First interceptor outermost, as connect applies them. */
export function chain(last: AnyCall, interceptors: readonly Interceptor[]): AnyCall {
  let next = last;
  for (let i = interceptors.length - 1; i >= 0; i--) next = interceptors[i](next as never) as unknown as AnyCall;
  return next;
}
