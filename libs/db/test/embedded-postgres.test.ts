import { execFile } from "node:child_process";
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../src/index.js";
import { findFreePort, isPortFree } from "../src/embedded/ports.js";
import { readPostmasterPid } from "../src/embedded/postmaster-pid.js";
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from "../src/embedded/start-embedded-postgres.js";

const run = promisify(execFile);
const exitWithoutStop = fileURLToPath(new URL("./fixtures/embedded-exit-without-stop.ts", import.meta.url));

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

// Sequential on purpose: all cases share one data dir (initdb once).
describe("startEmbeddedPostgres", () => {
  let dataDir: string;
  const running: EmbeddedPostgresHandle[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "signage-db-embedded-"));
    // mkdtemp makes 0700; as root, postgres runs as another OS user and must traverse it.
    await chmod(dataDir, 0o755);
  });
  afterAll(async () => {
    await Promise.all(running.map((h) => h.stop()));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("keeps data and port across a stop/start", async () => {
    const port = await findFreePort();
    const first = await startEmbeddedPostgres({ dataDir, port });
    running.push(first);
    expect(first.port).toBe(port);
    expect(new URL(first.url).pathname).toBe("/signage");

    const db1 = await createDatabase({ url: first.url, schema: "core" });
    await db1.migrate();
    await db1.knex.schema.createTable("notes", (t) => t.text("body"));
    await db1.knex("notes").insert({ body: "survives restart" });
    await db1.close();
    await first.stop();

    const state = JSON.parse(await readFile(path.join(dataDir, "embedded-postgres.json"), "utf8"));
    expect(state.port).toBe(port);

    // No port given: the persisted one is reused.
    const second = await startEmbeddedPostgres({ dataDir });
    running.push(second);
    expect(second.url).toBe(first.url);
    const db2 = await createDatabase({ url: second.url, schema: "core" });
    try {
      expect(await db2.knex("notes").pluck("body")).toEqual(["survives restart"]);
    } finally {
      await db2.close();
      await second.stop();
    }
  });

  it("leaves no embedded-postgres (async-exit-hook) process handlers behind", () => {
    const isHook = (l: (...args: never[]) => unknown) => l.toString().includes("eventFilters");
    for (const ev of ["SIGTERM", "SIGINT", "SIGHUP", "beforeExit", "exit"] as const) {
      expect(process.listeners(ev as NodeJS.Signals).filter(isHook)).toEqual([]);
    }
  });

  it("a process exiting without stop() does not orphan postgres", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", exitWithoutStop, dataDir], { timeout: 30_000 });
    const { port } = JSON.parse(stdout) as { port: number };
    await waitUntil(() => isPortFree(port));

    const again = await startEmbeddedPostgres({ dataDir });
    running.push(again);
    const db = await createDatabase({ url: again.url, schema: "core" });
    try {
      expect(await db.knex("notes").pluck("body")).toEqual(["survives restart"]);
    } finally {
      await db.close();
      await again.stop();
    }
  });

  it("refuses to start over a postmaster orphaned by a crash, with the pid to stop", async () => {
    const statePath = path.join(dataDir, "embedded-postgres.json");
    const { port } = JSON.parse(await readFile(statePath, "utf8")) as { port: number };
    // The child SIGKILLs itself: no 'exit' event, so postgres is orphaned.
    await new Promise<void>((resolve) => {
      spawn(process.execPath, ["--import", "tsx", exitWithoutStop, dataDir, "sigkill"], { stdio: "ignore" }).on("exit", () => resolve());
    });
    const pid = await readPostmasterPid(path.join(dataDir, "pg"));
    expect(pid).toBeTypeOf("number");
    try {
      await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(new RegExp(`already running .*pid ${pid}`));
    } finally {
      process.kill(pid!, "SIGINT"); // the orphan this test created
      await waitUntil(async () => (await readPostmasterPid(path.join(dataDir, "pg"))) === undefined);
    }
    // The failed attempt did not move the persisted port.
    const again = await startEmbeddedPostgres({ dataDir });
    running.push(again);
    expect(again.port).toBe(port);
    await again.stop();
  });
});
