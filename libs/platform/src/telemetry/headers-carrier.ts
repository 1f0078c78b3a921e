import type { TextMapGetter, TextMapSetter } from "@opentelemetry/api";

/** Lets the W3C propagator read/write Fetch `Headers` (Connect's header type). */
export const headersGetter: TextMapGetter<Headers> = {
  keys: (carrier) => [...carrier.keys()],
  get: (carrier, key) => carrier.get(key) ?? undefined,
};

export const headersSetter: TextMapSetter<Headers> = {
  set: (carrier, key, value) => carrier.set(key, value),
};
