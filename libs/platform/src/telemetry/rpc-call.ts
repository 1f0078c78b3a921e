import { ValueType, type Attributes, type Histogram, type Meter, type Span } from "@opentelemetry/api";
import { endRpcSpanError, endRpcSpanOk } from "./rpc-span.js";

// Milliseconds: an in-process call takes well under 1 ms, a slow list or upload seconds.
const DURATION_BUCKETS_MS = [0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000];

/**
 * `rpc.server.duration` / `rpc.client.duration` (OTel RPC conventions, milliseconds): one
 * recording per call, by `rpc.system`, `rpc.service`, `rpc.method` and `rpc.grpc.status_code`:
 * call rate, error rate and latency per method, for dashboards and alerts.
 */
export function rpcDurationHistogram(meter: Meter, side: "server" | "client"): Histogram {
  return meter.createHistogram(`rpc.${side}.duration`, {
    description: side === "server" ? "Duration of inbound RPCs, until the last response message" : "Duration of outbound RPCs, until the last response message",
    unit: "ms",
    valueType: ValueType.DOUBLE,
    advice: { explicitBucketBoundaries: DURATION_BUCKETS_MS },
  });
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
    histogram.record(performance.now() - startedAt, { ...attributes, "rpc.grpc.status_code": code });
  };
}
