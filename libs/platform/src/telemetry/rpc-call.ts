import { Code } from "@connectrpc/connect";
import { ValueType, type Attributes, type Histogram, type Meter, type Span } from "@opentelemetry/api";
import { endRpcSpanError, endRpcSpanOk } from "./rpc-span.js";

// Seconds, as the HTTP durations: an in-process call takes well under 1 ms, a slow list or upload seconds.
const DURATION_BUCKETS_S = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * `rpc.server.call.duration` / `rpc.client.call.duration` (OTel's stable RPC metrics, seconds):
 * one recording per call, by `rpc.system.name`, `rpc.method` and `rpc.status_code`
 * (rpcMetricAttributes): call rate, error rate and latency per method, for dashboards and alerts.
 */
export function rpcDurationHistogram(meter: Meter, side: "server" | "client"): Histogram {
  return meter.createHistogram(`rpc.${side}.call.duration`, {
    description: side === "server" ? "Duration of inbound RPCs, until the last response message" : "Duration of outbound RPCs, until the last response message",
    unit: "s",
    valueType: ValueType.DOUBLE,
    advice: { explicitBucketBoundaries: DURATION_BUCKETS_S },
  });
}

/** The call's metric attributes: only methods the service registered get here (unknown ones are answered before any interceptor). */
export function rpcMetricAttributes(req: { readonly service: { readonly typeName: string }; readonly method: { readonly name: string } }, system: string): Attributes {
  return { "rpc.system.name": system === "grpc" ? "grpc" : "connectrpc", "rpc.method": `${req.service.typeName}/${req.method.name}` };
}

/** gRPC's canonical status names (the `rpc.status_code` values), for every protocol alike. */
const STATUS_NAMES: Record<Code | 0, string> = {
  0: "OK",
  [Code.Canceled]: "CANCELLED",
  [Code.Unknown]: "UNKNOWN",
  [Code.InvalidArgument]: "INVALID_ARGUMENT",
  [Code.DeadlineExceeded]: "DEADLINE_EXCEEDED",
  [Code.NotFound]: "NOT_FOUND",
  [Code.AlreadyExists]: "ALREADY_EXISTS",
  [Code.PermissionDenied]: "PERMISSION_DENIED",
  [Code.ResourceExhausted]: "RESOURCE_EXHAUSTED",
  [Code.FailedPrecondition]: "FAILED_PRECONDITION",
  [Code.Aborted]: "ABORTED",
  [Code.OutOfRange]: "OUT_OF_RANGE",
  [Code.Unimplemented]: "UNIMPLEMENTED",
  [Code.Internal]: "INTERNAL",
  [Code.Unavailable]: "UNAVAILABLE",
  [Code.DataLoss]: "DATA_LOSS",
  [Code.Unauthenticated]: "UNAUTHENTICATED",
};

export function statusName(code: Code | 0): string {
  return STATUS_NAMES[code] ?? "UNKNOWN";
}

/**
 * How one call ends, whichever way it does (answer, error, a stream finishing or cut):
 * its span ends with the status code and its duration is recorded under that code. Once only.
 */
export function rpcCallEnd(span: Span, side: "server" | "client", histogram: Histogram, attributes: Attributes, startedAt: number): (err?: unknown) => void {
  let ended = false;
  return (err) => {
    if (ended) return;
    ended = true;
    const code = err === undefined ? endRpcSpanOk(span) : endRpcSpanError(span, err, side);
    histogram.record((performance.now() - startedAt) / 1000, { ...attributes, "rpc.status_code": statusName(code) });
  };
}
