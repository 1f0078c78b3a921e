// The gateway's access log: one line per finished request through the real gateway and a pino
// logger writing to a captured stream, as run-gateway.ts builds it.
import { connect } from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger, startTelemetry, type Telemetry } from "@signage/platform";
import { listenGateway } from "./support/listen-gateway.js";
import { CRASH_MESSAGE, outcomeTransport } from "./support/outcome-service.js";

type Line = Record<string, unknown>;
let chunks: string[] = [];
const destination = new Writable({
  write(chunk, _enc, cb) {
    chunks.push(String(chunk));
    cb();
  },
});
const lines = (): Line[] => chunks.join("").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Line);
const requestLines = () => lines().filter((l) => l.msg === "request");

let telemetry: Telemetry;
let gateways: Awaited<ReturnType<typeof listenGateway>>[];
beforeAll(async () => {
  // A tracer provider (no instrumentation, no export): the gateway's span gives the lines a trace id.
  telemetry = startTelemetry({ serviceName: "request-log-test", instrumentations: "none" });
  const logger = createLogger({ name: "gateway", destination });
  gateways = await Promise.all([0, 1].map((trustedProxies) => listenGateway(outcomeTransport(), { logger, trustedProxies })));
});
afterAll(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  await telemetry.shutdown();
});
beforeEach(() => {
  chunks = [];
});

/** The response (body read), then the log lines once the request's line is written (after the response closes). */
async function send(path: string, init: RequestInit & { proxies?: number } = {}): Promise<{ status: number; lines: Line[] }> {
  const res = await fetch(`${gateways[init.proxies ?? 0].base}${path}`, init);
  await res.arrayBuffer();
  for (let i = 0; i < 200 && requestLines().length === 0; i++) await new Promise((r) => setTimeout(r, 5));
  return { status: res.status, lines: lines() };
}

describe("the request log", () => {
  it("writes one info line per request: method, route template, status, duration, bytes, client address", async () => {
    const { status, lines } = await send("/api/v2/user/me?select=email", { headers: { authorization: "Bearer ok", cookie: "session=cookie-value" } });
    expect(status).toBe(200);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "info", msg: "request", method: "GET", route: "/api/v2/user/me", status: 200, client_address: "127.0.0.1" });
    expect(lines[0].duration_ms).toEqual(expect.any(Number));
    expect(lines[0].content_length).toEqual(expect.any(Number));
    expect(lines[0].content_length).toBeGreaterThan(0);
    expect(lines[0]).not.toHaveProperty("path");
    expect(lines[0]).not.toHaveProperty("aborted");
  });

  it("names an unmatched path by its path, without the query string, at info for a 4xx", async () => {
    const { status, lines } = await send("/storage/v9/blobs/b1?expires=1&signature=presigned-secret");
    expect(status).toBe(404);
    expect(lines).toEqual([expect.objectContaining({ level: "info", method: "GET", path: "/storage/v9/blobs/b1", status: 404 })]);
    expect(lines[0]).not.toHaveProperty("route");
  });

  it("never writes the signature, Authorization, cookies or bodies", async () => {
    await send("/api/v2/user/me?signature=presigned-secret", { headers: { authorization: "Bearer ok", cookie: "session=cookie-secret" } });
    await send("/oauth/token?signature=presigned-secret", { method: "POST", headers: { authorization: "Basic Y2xpZW50OnNlY3JldA==" }, body: new URLSearchParams({ grant_type: "password", username: "u@example.com", password: "body-secret" }) });
    const written = chunks.join("");
    expect(requestLines()).toHaveLength(2);
    for (const secret of ["presigned-secret", "signature", "Bearer", "Basic", "Y2xpZW50OnNlY3JldA", "cookie-secret", "body-secret", "u@example.com"]) expect(written, secret).not.toContain(secret);
  });

  it("logs a 4xx from a service at info", async () => {
    const { status, lines } = await send("/api/v2/user/me", { headers: { authorization: "Bearer denied" } });
    expect(status).toBe(403);
    expect(lines).toEqual([expect.objectContaining({ level: "info", msg: "request", status: 403 })]);
  });

  it("logs a 5xx's request line at warn, next to the error mapper's one error line for the failure", async () => {
    const { status, lines } = await send("/api/v2/user/me", { headers: { authorization: "Bearer crash" } });
    expect(status).toBe(500);
    expect(lines.filter((l) => l.level === "error")).toEqual([expect.objectContaining({ msg: "request failed" })]);
    expect(JSON.stringify(lines.find((l) => l.level === "error"))).toContain(CRASH_MESSAGE);
    expect(requestLines()).toEqual([expect.objectContaining({ level: "warn", route: "/api/v2/user/me", status: 500 })]);
  });

  it("logs an expected 5xx (a service down), which the error mapper does not, at warn", async () => {
    const { status, lines } = await send("/api/v2/user/me", { headers: { authorization: "Bearer down" } });
    expect(status).toBe(503);
    expect(lines).toEqual([expect.objectContaining({ level: "warn", msg: "request", status: 503 })]);
  });

  it("marks a request the client left before it was answered as aborted, at info whatever status it got", async () => {
    const socket = connect(Number(new URL(gateways[0].base).port), "127.0.0.1");
    socket.write("POST /oauth/token HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\ngrant_type=pass");
    await new Promise((r) => setTimeout(r, 50));
    socket.destroy();
    for (let i = 0; i < 200 && requestLines().length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(requestLines()).toEqual([expect.objectContaining({ level: "info", route: "/oauth/token", status: 500, aborted: true, client_address: "127.0.0.1" })]);
    expect(lines().filter((l) => l.level === "error" || l.level === "warn")).toEqual([]);
  });

  it("skips the health probes", async () => {
    for (const path of ["/healthz", "/readyz", "/livez"]) {
      await (await fetch(`${gateways[0].base}${path}`)).arrayBuffer();
    }
    await send("/openapi.json");
    expect(requestLines().map((l) => l.route ?? l.path)).toEqual(["/openapi.json"]);
  });

  it("names the client address the gateway computes (GATEWAY_TRUSTED_PROXIES), never the client's own say", async () => {
    const forwarded = { "x-forwarded-for": "192.0.2.1, 203.0.113.3", "x-client-address": "192.0.2.99" };
    expect((await send("/openapi.json", { headers: forwarded, proxies: 1 })).lines[0]).toMatchObject({ client_address: "203.0.113.3" });
    chunks = [];
    expect((await send("/openapi.json", { headers: forwarded, proxies: 0 })).lines[0]).toMatchObject({ client_address: "127.0.0.1" });
  });

  it("carries the request's trace id (an incoming traceparent's)", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const { lines } = await send("/api/v2/user/me", { headers: { authorization: "Bearer ok", traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    expect(lines[0]).toMatchObject({ msg: "request", trace_id: traceId });
  });
});
