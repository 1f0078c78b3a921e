import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { context, isSpanContextValid, propagation, trace } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { contextFromHeaders, startTelemetry, traceHeaders } from "./support/platform.js";

describe("startTelemetry", () => {
  it("exports spans as OTLP/HTTP protobuf to <endpoint>/v1/traces", async () => {
    const received: Array<{ url?: string; contentType?: string; bytes: number }> = [];
    const collector = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ url: req.url, contentType: req.headers["content-type"], bytes: Buffer.concat(chunks).length });
        res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
      });
    });
    await new Promise<void>((r) => collector.listen(0, "127.0.0.1", r));
    const { port } = collector.address() as AddressInfo;

    const telemetry = startTelemetry({
      serviceName: "otlp-test",
      otlpEndpoint: `http://127.0.0.1:${port}`,
      instrumentations: "none",
    });
    trace.getTracer("test").startSpan("exported").end();
    await telemetry.shutdown(); // flushes the batch processor
    await new Promise<void>((r) => collector.close(() => r()));

    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ url: "/v1/traces", contentType: "application/x-protobuf" });
    expect(received[0].bytes).toBeGreaterThan(0);
  });

  it("still makes real trace ids and propagates traceparent without an endpoint", async () => {
    const telemetry = startTelemetry({ serviceName: "no-export", instrumentations: "none" });
    try {
      const span = trace.getTracer("test").startSpan("local");
      expect(isSpanContextValid(span.spanContext())).toBe(true);
      const carrier: Record<string, string> = {};
      propagation.inject(trace.setSpan(context.active(), span), carrier);
      expect(carrier.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      span.end();
    } finally {
      await telemetry.shutdown();
    }
  });
});

describe("traceHeaders / contextFromHeaders (for NATS and other carriers)", () => {
  it("round-trips the active span through plain headers", async () => {
    const telemetry = startTelemetry({ serviceName: "headers", instrumentations: "none" });
    try {
      const tracer = trace.getTracer("test");
      const producer = tracer.startSpan("publish");
      const headers = traceHeaders(trace.setSpan(context.active(), producer));
      expect(Object.keys(headers)).toEqual(["traceparent"]);

      // Consumer side: a NATS-like header map with a get(name) accessor.
      const msgHeaders = new Map(Object.entries(headers));
      const parent = contextFromHeaders((name) => msgHeaders.get(name));
      const consumer = tracer.startSpan("consume", {}, parent);
      expect(consumer.spanContext().traceId).toBe(producer.spanContext().traceId);
      expect(trace.getSpanContext(parent)).toMatchObject({ spanId: producer.spanContext().spanId, isRemote: true });
      expect(traceHeaders(context.active())).toEqual({});
    } finally {
      await telemetry.shutdown();
    }
  });
});
