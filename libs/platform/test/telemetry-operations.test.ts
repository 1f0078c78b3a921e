// What operating the telemetry looks like: the resource that says which service, release
// and process a span comes from; collector trouble reaching the logs (rate-limited);
// a hung collector not holding up, or failing, a shutdown.
import { EventEmitter } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { BatchSpanProcessor, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, installGracefulShutdown, startTelemetry } from "./support/platform.js";
import { memoryLogger } from "./support/memory-logger.js";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 5_000; !check(); await sleep(10)) if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const savedEnv = { OTEL_SERVICE_NAME: process.env.OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES: process.env.OTEL_RESOURCE_ATTRIBUTES };
afterEach(() => {
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

/** Starts telemetry exporting to memory, ends one span, returns its resource attributes. */
async function resourceOfASpan(env: Record<string, string>): Promise<Record<string, unknown>> {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor(exporter);
  const telemetry = startTelemetry({ serviceName: "core", instrumentations: "none", spanProcessors: [processor], env, logger: memoryLogger().logger });
  try {
    trace.getTracer("test").startSpan("work").end();
    await processor.forceFlush(); // export waits for the resource's async attributes
    const [span] = exporter.getFinishedSpans();
    return { ...span!.resource.attributes };
  } finally {
    await telemetry.shutdown();
  }
}

describe("the resource of exported spans", () => {
  it("names the service, its release (SERVICE_VERSION) and this process (a UUID per start)", async () => {
    const first = await resourceOfASpan({ SERVICE_VERSION: "1.4.2" });
    expect(first).toMatchObject({ "service.name": "core", "service.version": "1.4.2", "service.instance.id": expect.stringMatching(UUID) });
    const second = await resourceOfASpan({});
    expect(second["service.instance.id"]).toMatch(UUID);
    expect(second["service.instance.id"]).not.toBe(first["service.instance.id"]);
    expect(second).not.toHaveProperty("service.version");
  });

  it("lets OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override the code's defaults", async () => {
    process.env.OTEL_SERVICE_NAME = "core-canary";
    process.env.OTEL_RESOURCE_ATTRIBUTES = "deployment.environment.name=staging,service.namespace=signage,service.version=2.0.0-rc.1";
    expect(await resourceOfASpan({ SERVICE_VERSION: "1.4.2" })).toMatchObject({
      "service.name": "core-canary",
      "service.namespace": "signage",
      "deployment.environment.name": "staging",
      "service.version": "2.0.0-rc.1",
    });
  });

  it("refuses a SERVICE_VERSION that is no release tag, naming the variable", () => {
    expect(() => startTelemetry({ serviceName: "core", instrumentations: "none", env: { SERVICE_VERSION: "1.0 beta,x=y" } })).toThrow(ConfigError);
    expect(() => startTelemetry({ serviceName: "core", instrumentations: "none", env: { SERVICE_VERSION: "1.0 beta,x=y" } })).toThrow(/SERVICE_VERSION/);
  });
});

/** A collector that accepts connections and requests, and never answers. */
async function hungCollector(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A collector that refuses every export at once (400: not retried). */
async function refusingCollector(): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    req.resume();
    req.on("end", () => res.writeHead(400).end("bad export"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("collector trouble", () => {
  it("logs failed exports as the service's warnings, one line per minute per kind", async () => {
    const collector = await refusingCollector();
    const { logger, lines } = memoryLogger("core");
    // Exports on the processor's timer, as in production: a failure there reaches diag (forceFlush would reject instead).
    const processor = new BatchSpanProcessor(new OTLPTraceExporter({ url: `${collector.url}/v1/traces` }), { scheduledDelayMillis: 10 });
    const telemetry = startTelemetry({ serviceName: "core", instrumentations: "none", spanProcessors: [processor], env: {}, logger });
    try {
      for (let i = 1; i <= 3; i++) {
        trace.getTracer("test").startSpan(`lost ${i}`).end();
        await waitFor(() => collector.requests() >= i, `export ${i}`);
      }
      await sleep(100); // the last refusal reaches the error handler
      const otel = lines().filter((l) => l.component === "opentelemetry");
      expect(otel).toHaveLength(1);
      expect(otel[0]).toMatchObject({ level: "error", service: "core", msg: expect.stringContaining("Bad Request") });
    } finally {
      await telemetry.shutdown();
      await collector.close();
    }
  });

  it("cuts the shutdown flush short when the collector hangs, with a warning, and the process still exits 0", async () => {
    const collector = await hungCollector();
    const { logger, lines } = memoryLogger("core");
    const telemetry = startTelemetry({ serviceName: "core", instrumentations: "none", otlpEndpoint: collector.url, env: {}, logger, shutdownTimeoutMs: 200 });
    const proc = Object.assign(new EventEmitter(), { exits: [] as number[], exit(code: number) { this.exits.push(code); } });
    // The step as the service processes have it (run-standalone.ts), with their default step timeout.
    const shutdown = installGracefulShutdown({ logger, timeoutMs: 15_000, process: proc, steps: [{ name: "telemetry", run: () => telemetry.shutdown() }] });
    try {
      trace.getTracer("test").startSpan("never exported").end();
      expect(await shutdown.shutdown("SIGTERM")).toBe(0);
      expect(proc.exits).toEqual([0]);
      expect(lines().find((l) => l.level === "warn" && String(l.msg).startsWith("telemetry shutdown cut short"))).toMatchObject({ timeoutMs: 200 });
    } finally {
      shutdown.uninstall();
      await collector.close();
    }
  });
});
