// The gateway process's HTTP server timeouts: defaults for running behind an ingress or ALB
// (keep-alive above their 60 s), env overrides, and refused combinations.
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@signage/platform";
import { runGateway, type RunningGateway } from "../src/run-gateway.js";
import { serverTimeoutsEnvSchema } from "../src/server-timeouts.js";

const UPSTREAMS = {
  CORE_URL: "http://127.0.0.1:1",
  MEDIA_URL: "http://127.0.0.1:1",
  INTEGRATION_URL: "http://127.0.0.1:1",
  REPORTING_URL: "http://127.0.0.1:1",
  LICENSING_URL: "http://127.0.0.1:1",
};
const noTelemetry = { shutdown: async () => {} };

describe("gateway HTTP server timeouts", () => {
  let running: RunningGateway | undefined;
  afterEach(async () => {
    running?.shutdown.uninstall();
    await new Promise((ok) => running?.server.close(ok) ?? ok(undefined));
    running = undefined;
  });

  async function start(env: Record<string, string>): Promise<RunningGateway> {
    running = runGateway({ GATEWAY_PORT: "0", LOG_LEVEL: "silent", ...UPSTREAMS, ...env }, noTelemetry);
    if (!running.server.listening) await once(running.server, "listening");
    return running;
  }

  it("by default keeps idle connections longer than a proxy's 60 s, headers above that, no whole-request limit", async () => {
    const { server } = await start({});
    expect(server.keepAliveTimeout).toBe(65_000);
    expect(server.headersTimeout).toBe(66_000);
    expect(server.requestTimeout).toBe(0);
    expect(server.timeout).toBe(120_000);
  });

  it("takes GATEWAY_*_TIMEOUT_MS from the environment", async () => {
    const { server } = await start({
      GATEWAY_KEEP_ALIVE_TIMEOUT_MS: "75000",
      GATEWAY_HEADERS_TIMEOUT_MS: "80000",
      GATEWAY_REQUEST_TIMEOUT_MS: "3600000",
      GATEWAY_IDLE_TIMEOUT_MS: "90000",
    });
    expect(server.keepAliveTimeout).toBe(75_000);
    expect(server.headersTimeout).toBe(80_000);
    expect(server.requestTimeout).toBe(3_600_000);
    expect(server.timeout).toBe(90_000);
  });

  it("derives the headers timeout from a configured keep-alive", () => {
    expect(loadConfig(serverTimeoutsEnvSchema, { GATEWAY_KEEP_ALIVE_TIMEOUT_MS: "90000" }).headersTimeoutMs).toBe(91_000);
  });

  it.each([
    [{ GATEWAY_KEEP_ALIVE_TIMEOUT_MS: "65000", GATEWAY_HEADERS_TIMEOUT_MS: "60000" }, /GATEWAY_HEADERS_TIMEOUT_MS: must be above GATEWAY_KEEP_ALIVE_TIMEOUT_MS/],
    [{ GATEWAY_REQUEST_TIMEOUT_MS: "30000" }, /GATEWAY_REQUEST_TIMEOUT_MS: must be 0 \(no limit\) or at least the headers timeout/],
    [{ GATEWAY_IDLE_TIMEOUT_MS: "-1" }, /GATEWAY_IDLE_TIMEOUT_MS: GATEWAY_IDLE_TIMEOUT_MS must not be negative/],
    [{ GATEWAY_KEEP_ALIVE_TIMEOUT_MS: "1.5" }, /GATEWAY_KEEP_ALIVE_TIMEOUT_MS: .*whole number/],
  ])("refuses %j with a clear message", (env, message) => {
    expect(() => loadConfig(serverTimeoutsEnvSchema, env)).toThrow(ConfigError);
    expect(() => loadConfig(serverTimeoutsEnvSchema, env)).toThrow(message);
  });
});
