// "A test proves one trace id spans gateway -> core -> NATS -> media for a
// customer create." Core and media run on real h2c ports, the gateway calls
// them over gRPC, customer.created travels through NATS JetStream; every span
// lands in one in-memory exporter.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { createTestDatabase, type TestDatabase } from "@signage/db";
import { createJetStreamBus, type EventBus } from "@signage/events";
import { generateSigningKeys } from "@signage/auth";
import { clientTracingInterceptor, createLogger, createServiceTransport, startTelemetry, type Telemetry } from "@signage/platform";
import { startModule, type RunningModule } from "@signage/runtime";
import { createGateway, upstreamsByPackage } from "@signage/gateway";
import { allFiles } from "@signage/contracts";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { connect } from "nats";

const NATS_URL = process.env.NATS_URL || "nats://127.0.0.1:4222";
const exporter = new InMemorySpanExporter();
let telemetry: Telemetry;
let db: TestDatabase;
let bus: EventBus;
let modules: RunningModule[];
let gatewayUrl: string;
let closeGateway: () => Promise<void>;
const stream = `TRACE_${Math.random().toString(36).slice(2, 8).toUpperCase()}`;

beforeAll(async () => {
  telemetry = startTelemetry({ serviceName: "trace-test", instrumentations: "none", spanProcessors: [new SimpleSpanProcessor(exporter)] });
  db = await createTestDatabase({ prefix: "trace" });
  bus = await createJetStreamBus({ servers: NATS_URL, streamName: stream, subjectPrefix: stream.toLowerCase() });
  const signingKeys = generateSigningKeys();
  const logger = createLogger({ name: "trace-test", level: "silent" });
  const tracer = trace.getTracer("trace-test");
  modules = [];
  const urls: Record<string, ReturnType<typeof createServiceTransport>> = {};
  for (const module of [coreModule, mediaModule]) {
    const running = await startModule(module, { databaseUrl: db.url, bus, keys: { signingKeys, publicKey: signingKeys.publicKey }, tracer, logger, env: {} });
    const listening = await running.service.listen({ host: "127.0.0.1", port: 0 });
    await running.instance.start?.();
    modules.push(running);
    urls[module.name] = createServiceTransport({ baseUrl: listening.url, protocol: "grpc", interceptors: [clientTracingInterceptor(tracer)] });
  }
  // Only core and media take part; the other services' routes are not called here.
  const upstreams = upstreamsByPackage({ ...urls, integration: urls.core, reporting: urls.core, licensing: urls.core });
  const { app } = createGateway({ files: allFiles, upstreams, logger });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  gatewayUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  closeGateway = () => new Promise((r) => server.close(() => r()));
}, 60_000);

afterAll(async () => {
  await closeGateway?.();
  for (const m of modules ?? []) await m.stop();
  await bus?.close();
  const nc = await connect({ servers: NATS_URL });
  await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
  await nc.close();
  await db?.drop();
  await telemetry?.shutdown();
}, 60_000);

describe("tracing", () => {
  it("one trace id spans gateway -> core -> NATS -> media for a customer create", async () => {
    const tokenRes = await fetch(`${gatewayUrl}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=password&username=admin%40example.com&password=admin-change-me" });
    const token = ((await tokenRes.json()) as { access_token: string }).access_token;
    exporter.reset();
    const res = await fetch(`${gatewayUrl}/api/customer`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ name: "Traced" }) });
    expect(res.status).toBe(200);

    let spans: ReadableSpan[] = [];
    for (let i = 0; i < 100; i++) {
      spans = exporter.getFinishedSpans();
      if (spans.some((s) => s.name.startsWith("process customer.created"))) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const root = spans.find((s) => s.name === "POST /api/customer")!;
    expect(root).toBeDefined();
    const traceId = root.spanContext().traceId;
    const inTrace = spans.filter((s) => s.spanContext().traceId === traceId).map((s) => s.name);
    expect(inTrace).toEqual(
      expect.arrayContaining([
        "POST /api/customer",
        expect.stringMatching(/CustomerService\/CreateCustomer/),
        expect.stringMatching(/^publish customer\.created/),
        expect.stringMatching(/^process customer\.created/),
      ]),
    );
    // Both the gateway's client span and core's server span carry the RPC name.
    expect(inTrace.filter((n) => /CustomerService\/CreateCustomer/.test(n)).length).toBeGreaterThanOrEqual(2);
    // The media consumer's span (root folder creation) is in the same trace.
    const consumer = spans.find((s) => s.name.startsWith("process customer.created") && s.spanContext().traceId === traceId)!;
    expect(JSON.stringify(consumer.attributes)).toContain("media");
  });
});
