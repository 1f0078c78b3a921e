import type { DescField, DescMessage, Message } from "@bufbuild/protobuf";
import { reflect } from "@bufbuild/protobuf/reflect";
import { Code, type StreamRequest, type UnaryRequest } from "@connectrpc/connect";
import { serviceError } from "../errors/service-error.js";
import { AuthErrorKey } from "../errors/auth-error-keys.js";

/** The customerId selector of a request message; undefined when the field is unset. */
export function customerIdOf(input: DescMessage, field: DescField, message: Message): number | undefined {
  const r = reflect(input, message);
  if (!r.isSet(field)) return undefined;
  const raw = r.get(field);
  const id = typeof raw === "bigint" || typeof raw === "string" ? Number(raw) : raw;
  if (typeof id === "number" && Number.isSafeInteger(id)) return id;
  throw serviceError(Code.InvalidArgument, AuthErrorKey.customerIdInvalid, "customerId must be an integer");
}

/**
 * Reads the selector from a unary request, or from the first message of a streaming one. The
 * peeked message is replayed, so the returned request must be the one passed on.
 */
export async function peekCustomerId<R extends UnaryRequest | StreamRequest>(
  req: R,
  field: DescField,
): Promise<{ requestedCustomerId: number | undefined; req: R }> {
  if (!req.stream) {
    return { requestedCustomerId: customerIdOf(req.method.input, field, req.message), req };
  }
  const source = req.message[Symbol.asyncIterator]();
  const first = await source.next();
  if (first.done) return { requestedCustomerId: undefined, req: { ...req, message: emptyIterable() } };
  return {
    requestedCustomerId: customerIdOf(req.method.input, field, first.value),
    req: { ...req, message: replay(first.value, source) },
  };
}

async function* replay<T>(first: T, rest: AsyncIterator<T>): AsyncGenerator<T> {
  try {
    yield first;
    for (let r = await rest.next(); !r.done; r = await rest.next()) yield r.value;
  } finally {
    await rest.return?.();
  }
}

async function* emptyIterable<T>(): AsyncGenerator<T> {}
