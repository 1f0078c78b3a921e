import { EventEmitter } from "node:events";
import { Code, ConnectError, createClient, type ConnectRouter } from "@connectrpc/connect";
import { ProbeService } from "@signage/contracts/signage/testing/v1/probe_pb";
import { describe, expect, it } from "vitest";
import { createService, createServiceTransport, installGracefulShutdown, type ShutdownProcess } from "./support/platform.js";
import { memoryLogger } from "./support/memory-logger.js";
import { registerProbe } from "./support/probe.js";

function latch() {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let markEntered!: () => void;
  const entered = new Promise<void>((r) => (markEntered = r));
  return { release, released, entered, markEntered };
}

describe("service.close()", () => {
  it.each(["grpc", "connect"] as const)("lets an in-flight %s call finish and refuses new connections", async (protocol) => {
    const gate = latch();
    const service = createService({
      name: "probe",
      logger: memoryLogger().logger,
      register: registerProbe({
        beforePublic: async () => {
          gate.markEntered();
          await gate.released;
        },
      }),
    });
    const { url } = await service.listen({ host: "127.0.0.1", port: 0 });
    const probe = createClient(ProbeService, createServiceTransport({ baseUrl: url, protocol }));

    const inFlight = probe.public({ text: "slow" });
    await gate.entered;
    let closed = false;
    const closing = service.close({ timeoutMs: 5000 }).then(() => (closed = true));

    // A fresh client (new TCP connection) is refused while the old call drains.
    const fresh = createClient(ProbeService, createServiceTransport({ baseUrl: url, protocol }));
    const refused = await fresh.public({ text: "new" }).catch((e: unknown) => ConnectError.from(e));
    expect(refused).toBeInstanceOf(ConnectError);
    expect((refused as ConnectError).code).toBe(Code.Unavailable);
    expect(closed).toBe(false);

    gate.release();
    expect((await inFlight).text).toBe("echo: slow");
    await closing;
    expect(closed).toBe(true);
  });

  it("aborts calls still running when the drain timeout expires", async () => {
    let handlerSignal: AbortSignal | undefined;
    const entered = latch();
    const register = (router: ConnectRouter) =>
      router.service(ProbeService, {
        async public(_req, ctx) {
          handlerSignal = ctx.signal;
          entered.markEntered();
          await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
          return { text: "late" };
        },
      });
    const { logger, lines } = memoryLogger();
    const service = createService({ name: "probe", logger, register });
    const { url } = await service.listen({ host: "127.0.0.1", port: 0 });
    const call = createClient(ProbeService, createServiceTransport({ baseUrl: url })).public({});
    const outcome = call.then(
      () => "resolved",
      (e: unknown) => ConnectError.from(e).code,
    );
    await entered.entered;

    const started = Date.now();
    await service.close({ timeoutMs: 200 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(handlerSignal?.aborted).toBe(true);
    expect(await outcome).not.toBe("resolved");
    expect(lines().some((l) => String(l.msg).includes("drain timed out"))).toBe(true);
  });

  it("drains HTTP/1.1 keep-alive connections too", async () => {
    const service = createService({ name: "probe", logger: memoryLogger().logger, register: registerProbe() });
    const { url } = await service.listen({ host: "127.0.0.1", port: 0 });
    // fetch keeps the HTTP/1.1 socket alive after the response.
    const res = await fetch(`${url}/signage.testing.v1.ProbeService/Public`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(200);
    await res.text();
    const started = Date.now();
    await service.close({ timeoutMs: 5000 });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

class FakeProcess extends EventEmitter implements ShutdownProcess {
  exits: number[] = [];
  exit(code: number) {
    this.exits.push(code);
  }
}

describe("installGracefulShutdown", () => {
  it("runs the steps in order on SIGTERM and exits 0", async () => {
    const proc = new FakeProcess();
    const order: string[] = [];
    const step = (name: string) => ({ name, run: async () => void order.push(name) });
    const { lines, logger } = memoryLogger();
    const handle = installGracefulShutdown({
      logger,
      timeoutMs: 1000,
      steps: [step("server"), step("bus"), step("db"), step("telemetry")],
      process: proc,
    });
    proc.emit("SIGTERM");
    expect(await handle.shutdown("again")).toBe(0);
    expect(order).toEqual(["server", "bus", "db", "telemetry"]);
    expect(proc.exits).toEqual([0]);
    expect(lines().find((l) => l.msg === "shutting down")).toMatchObject({ reason: "SIGTERM" });
    handle.uninstall();
    expect(proc.listenerCount("SIGTERM")).toBe(0);
  });

  it("keeps going after a failed or timed-out step and exits 1", async () => {
    const proc = new FakeProcess();
    const ran: string[] = [];
    const handle = installGracefulShutdown({
      logger: memoryLogger().logger,
      timeoutMs: 50,
      process: proc,
      steps: [
        { name: "hangs", run: () => new Promise(() => {}) },
        {
          name: "throws",
          run: () => {
            throw new Error("bus already gone");
          },
        },
        { name: "db", run: async () => void ran.push("db") },
      ],
    });
    expect(await handle.shutdown("test")).toBe(1);
    expect(ran).toEqual(["db"]);
    expect(proc.exits).toEqual([1]);
  });

  it("exits at once on a second signal", async () => {
    const proc = new FakeProcess();
    installGracefulShutdown({
      logger: memoryLogger().logger,
      timeoutMs: 60_000,
      process: proc,
      steps: [{ name: "slow", run: () => new Promise(() => {}) }],
    });
    proc.emit("SIGINT");
    proc.emit("SIGINT");
    expect(proc.exits).toEqual([1]);
  });
});
