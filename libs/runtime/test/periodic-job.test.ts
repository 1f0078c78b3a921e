import { afterEach, describe, expect, it } from "vitest";
import { createWakeSignal, schedulePeriodicJob, type PeriodicJob } from "../src/periodic-job.js";

const logs: { level: string; obj: object }[] = [];
const logger = { info: (obj: object) => void logs.push({ level: "info", obj }), warn: (obj: object) => void logs.push({ level: "warn", obj }) };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let job: PeriodicJob | undefined;
afterEach(async () => {
  await job?.stop();
  logs.length = 0;
});

describe("periodic job", () => {
  it("never runs two rounds at once in a process; a slow round makes the next ones skip", async () => {
    let active = 0;
    let maxActive = 0;
    let rounds = 0;
    job = schedulePeriodicJob({
      name: "slow",
      intervalMs: 5,
      logger,
      run: async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        await sleep(30);
        active--;
        rounds++;
      },
    });
    await sleep(100);
    expect(maxActive).toBe(1);
    expect(rounds).toBeGreaterThanOrEqual(2);
  });

  it("logs a failed round and runs again next time", async () => {
    let calls = 0;
    job = schedulePeriodicJob({
      name: "flaky",
      intervalMs: 5,
      logger,
      run: async () => {
        calls++;
        if (calls === 1) throw new Error("boom");
        return 3;
      },
    });
    await sleep(60);
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(logs.some((l) => l.level === "warn" && (l.obj as { job?: string }).job === "flaky")).toBe(true);
    expect(logs.some((l) => l.level === "info" && (l.obj as { done?: number }).done === 3)).toBe(true);
  });

  it("firstRoundAfterMs: a first round that soon, before the first interval has passed; none once stopped", async () => {
    let rounds = 0;
    job = schedulePeriodicJob({ name: "early", intervalMs: 60_000, firstRoundAfterMs: 10, logger, run: async () => void rounds++ });
    await sleep(60);
    expect(rounds).toBe(1);
    const late = schedulePeriodicJob({ name: "stopped early", intervalMs: 60_000, firstRoundAfterMs: 30, logger, run: async () => void rounds++ });
    await late.stop();
    await sleep(60);
    expect(rounds).toBe(1);
  });

  it("stop() waits for the round in flight, and no round starts after it", async () => {
    let finished = false;
    let started = 0;
    job = schedulePeriodicJob({
      name: "stoppable",
      intervalMs: 5,
      logger,
      run: async () => {
        started++;
        await sleep(40);
        finished = true;
      },
    });
    await sleep(15);
    await job.stop();
    expect(finished).toBe(true);
    const after = started;
    await sleep(30);
    expect(started).toBe(after);
  });

  it("refuses a non-positive interval", () => {
    expect(() => schedulePeriodicJob({ name: "bad", intervalMs: 0, logger, run: async () => undefined })).toThrow(/interval/);
  });
});

describe("periodic job woken", () => {
  it("runs a round when woken, and once more right after a round that was in flight when woken; nothing after stop()", async () => {
    const wake = createWakeSignal();
    let rounds = 0;
    let release: (() => void) | undefined;
    job = schedulePeriodicJob({
      name: "woken",
      intervalMs: 60_000,
      logger,
      wakeOn: wake,
      run: () =>
        new Promise<void>((resolve) => {
          rounds++;
          release = resolve;
        }),
    });
    wake.wake();
    expect(rounds).toBe(1);
    // Woken twice during the round: one more round after it, not two, and not in parallel.
    wake.wake();
    wake.wake();
    expect(rounds).toBe(1);
    release!();
    await sleep(5);
    expect(rounds).toBe(2);
    release!();
    await sleep(5);
    expect(rounds).toBe(2);
    await job.stop();
    wake.wake();
    expect(rounds).toBe(2);
  });
});
