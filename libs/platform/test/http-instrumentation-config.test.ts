// The HTTP auto-instrumentation as instrumentations.ts configures it, on a real server: what
// the exported SERVER span shows of a presigned download URL, and that a status message the
// app sets survives the instrumentation's own status at the end of the response.
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTelemetry, type Telemetry } from "./support/platform.js";
import { REDACTED_QUERY_PARAMS } from "../src/telemetry/instrumentations.js";

const exporter = new InMemorySpanExporter();
const processor = new SimpleSpanProcessor(exporter);
let telemetry: Telemetry;
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  telemetry = startTelemetry({ serviceName: "http-config-test", instrumentations: "auto", spanProcessors: [processor] });
  // vitest loads node:http as native ESM, which only the loader hook (register.ts) patches in
  // production; a require() after the SDK started lets the instrumentation patch the shared module.
  const http = createRequire(import.meta.url)("node:http") as typeof import("node:http");
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith("/fail")) {
      trace.getActiveSpan()?.setStatus({ code: SpanStatusCode.ERROR, message: "error.internal: Internal server error" });
      res.writeHead(500).end();
      return;
    }
    res.end("ok");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((r) => server.close(() => r()));
});
afterAll(async () => {
  await close?.();
  await telemetry?.shutdown();
});
beforeEach(() => exporter.reset());

async function serverSpanOf(path: string): Promise<ReadableSpan> {
  await (await fetch(`${base}${path}`)).arrayBuffer();
  for (let i = 0; i < 100; i++) {
    await processor.forceFlush();
    const span = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER);
    if (span) return span;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no SERVER span for ${path}`);
}

describe("HTTP auto-instrumentation config", () => {
  it("exports a presigned storage URL's signature as REDACTED, keeping the other parameters", async () => {
    const span = await serverSpanOf("/storage/v1/blobs/b1?expires=1795824000000&filename=tiny.png&signature=yVcEh1cySecret");
    expect(span.attributes["url.path"]).toBe("/storage/v1/blobs/b1");
    expect(span.attributes["url.query"]).toBe("expires=1795824000000&filename=tiny.png&signature=REDACTED");
    expect(JSON.stringify(span.attributes)).not.toContain("yVcEh1cySecret");
  });

  it("still redacts the library's default names (an S3 presigned URL)", async () => {
    const span = await serverSpanOf("/x?X-Amz-Signature=s3secret&sig=azsecret&page=2");
    expect(span.attributes["url.query"]).toBe("X-Amz-Signature=REDACTED&sig=REDACTED&page=2");
  });

  it("lists every name of the library's own defaults (a list given in the config replaces them)", () => {
    const library = createRequire(import.meta.url)("@opentelemetry/instrumentation-http/build/src/internal-types.js") as { DEFAULT_QUERY_STRINGS_TO_REDACT: string[] };
    expect(REDACTED_QUERY_PARAMS).toEqual(expect.arrayContaining(library.DEFAULT_QUERY_STRINGS_TO_REDACT));
  });

  it("keeps the status message the app set on a 5xx span", async () => {
    const span = await serverSpanOf("/fail");
    expect(span.attributes["http.response.status_code"]).toBe(500);
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "error.internal: Internal server error" });
  });
});
