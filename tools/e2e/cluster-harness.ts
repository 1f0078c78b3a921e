// Starts `tools/dev/cluster.ts` (each service its own process, gRPC over
// loopback) against a fresh test database and a private NATS stream, and
// tears everything down afterwards.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase, type TestDatabase } from "@signage/db";
import { connect } from "nats";

const root = fileURLToPath(new URL("../../", import.meta.url));
const NATS_URL = process.env.NATS_URL || "nats://127.0.0.1:4222";

export interface Cluster {
  baseUrl: string;
  stop(): Promise<void>;
  output(): string;
}

async function waitReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`cluster exited early with ${child.exitCode}`);
    try {
      // The gateway is ready on its own; the cluster is up once every upstream answers SERVING too.
      const res = await fetch(`${url}/readyz`);
      if (res.ok && ((await res.json()) as { status?: string }).status === "UP") return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`cluster not ready after ${timeoutMs} ms`);
}

/**
 * Ports the cluster listens on: below Linux's ephemeral range (32768-60999), where the tests'
 * own client sockets (pg, NATS, HTTP) take their local ports, so only another cluster started
 * at the same moment can hold one; `startCluster` then tries again on others.
 */
function pickBasePort(): number {
  return 20000 + 20 * Math.floor(Math.random() * 600);
}

const ATTEMPTS = 3;

export async function startCluster(extraEnv: Record<string, string> = {}): Promise<Cluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startClusterOn(pickBasePort(), extraEnv);
    } catch (e) {
      if (attempt >= ATTEMPTS || !(e as Error).message.includes("EADDRINUSE")) throw e;
    }
  }
}

async function startClusterOn(basePort: number, extraEnv: Record<string, string>): Promise<Cluster> {
  const db: TestDatabase = await createTestDatabase({ prefix: "e2e" });
  const suffix = Math.random().toString(36).slice(2, 8);
  const stream = `E2E_${suffix.toUpperCase()}`;
  const dataDir = mkdtempSync(join(tmpdir(), "signage-e2e-"));
  const gatewayPort = basePort + 10;
  let log = "";
  const child = spawn(process.execPath, ["--import", "tsx", "tools/dev/cluster.ts"], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      NATS_URL,
      NATS_STREAM: stream,
      NATS_SUBJECT_PREFIX: `e2e${suffix}`,
      DATA_DIR: dataDir,
      CLUSTER_BASE_PORT: String(basePort),
      GATEWAY_HOST: "127.0.0.1",
      GATEWAY_PORT: String(gatewayPort),
      LOG_LEVEL: "warn",
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const baseUrl = `http://127.0.0.1:${gatewayPort}`;

  async function stop() {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
    const nc = await connect({ servers: NATS_URL });
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(stream).catch(() => undefined);
    await nc.close();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }

  try {
    await waitReady(baseUrl, child, 90_000);
  } catch (e) {
    await stop();
    throw new Error(`${(e as Error).message}\n${log}`);
  }
  return { baseUrl, stop, output: () => log };
}
