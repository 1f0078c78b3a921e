// Argon2 hashes and verifications cost ~10 ms of CPU each (on the libuv threadpool). Password
// spraying across many usernames, which the per-account throttle does not bound, could run one
// per core and more, and take the CPU from every other call core serves. At most `concurrency`
// run at once and up to `queue` wait their turn; beyond that a call is refused at once with 503
// auth.error.busy and Retry-After (a login under attack slows down, the rest of core does not).
import { availableParallelism } from "node:os";
import { Code, ConnectError } from "@connectrpc/connect";
import { AuthErrorKey, serviceError } from "@signage/auth";
import { wholeNumberSetting } from "../whole-number-setting.js";

export interface HashLimiter {
  /** Runs `task` once a slot is free; a caller gone while waiting (`signal`) leaves the queue, its task never run. */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /**
   * Admits `work` at once or refuses it (503 auth.error.busy) when `concurrency + queue` are already
   * admitted; `work` takes a slot only around its hashing (`slot`), not around its database reads.
   */
  admit<T>(work: (slot: <R>(task: () => Promise<R>) => Promise<R>) => Promise<T>, signal?: AbortSignal): Promise<T>;
}

export interface HashLimits {
  concurrency: number;
  queue: number;
}

/**
 * `AUTH_HASH_CONCURRENCY` (1..64, default half the CPUs, 1 to 2: core has two limiters, and
 * libuv's default threadpool of 4 also serves DNS lookups and file I/O) and `AUTH_HASH_QUEUE`
 * (0..100000, default 64).
 */
export function hashLimitsFromEnv(env: Record<string, string | undefined>, cpus = availableParallelism()): HashLimits {
  return {
    concurrency: wholeNumberSetting(env, "AUTH_HASH_CONCURRENCY", { fallback: Math.min(2, Math.max(1, Math.floor(cpus / 2))), min: 1, max: 64, unit: "hashes" }),
    queue: wholeNumberSetting(env, "AUTH_HASH_QUEUE", { fallback: 64, min: 0, max: 100_000, unit: "waiting hashes" }),
  };
}

export function createHashLimiter({ concurrency, queue }: HashLimits): HashLimiter {
  let admitted = 0;
  let running = 0;
  const waiting: (() => void)[] = [];
  // A finished task hands its slot to the first waiter, so a newcomer cannot slip in between.
  const release = () => {
    const waiter = waiting.shift();
    if (waiter) waiter();
    else running--;
  };
  const wait = (signal: AbortSignal | undefined) =>
    new Promise<void>((resolve, reject) => {
      const leave = () => {
        waiting.splice(waiting.indexOf(take), 1);
        reject(ConnectError.from(signal!.reason, Code.Canceled));
      };
      const take = () => {
        signal?.removeEventListener("abort", leave);
        resolve();
      };
      waiting.push(take);
      signal?.addEventListener("abort", leave, { once: true });
    });
  const slot = async <R>(task: () => Promise<R>, signal: AbortSignal | undefined): Promise<R> => {
    if (running < concurrency) running++;
    else await wait(signal);
    try {
      // Gone while the slot was handed over: the hash is not worth its CPU any more.
      if (signal?.aborted) throw ConnectError.from(signal.reason, Code.Canceled);
      return await task();
    } finally {
      release();
    }
  };
  const admit: HashLimiter["admit"] = async (work, signal) => {
    if (signal?.aborted) throw ConnectError.from(signal.reason, Code.Canceled);
    // Admission bounds what runs and waits together; the slots bound what hashes at once.
    if (admitted >= concurrency + queue) {
      throw serviceError(Code.Unavailable, AuthErrorKey.busy, "Too many password checks in progress: retry in a second", { retryAfterSeconds: 1 });
    }
    admitted++;
    try {
      return await work((task) => slot(task, signal));
    } finally {
      admitted--;
    }
  };
  return { admit, run: (task, signal) => admit((take) => take(task), signal) };
}
