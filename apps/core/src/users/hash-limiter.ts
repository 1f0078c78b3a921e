// Argon2 hashes and verifications cost ~10 ms of CPU each (on the libuv threadpool). Password
// spraying across many usernames, which the per-account throttle does not bound, could run one
// per core and more, and take the CPU from every other call core serves. At most `concurrency`
// run at once and up to `queue` wait their turn; beyond that a call is refused at once with 503
// auth.error.busy and Retry-After (a login under attack slows down, the rest of core does not).
import { availableParallelism } from "node:os";
import { Code } from "@connectrpc/connect";
import { AuthErrorKey, serviceError } from "@signage/auth";
import { wholeNumberSetting } from "../whole-number-setting.js";

export interface HashLimiter {
  run<T>(task: () => Promise<T>): Promise<T>;
}

export interface HashLimits {
  concurrency: number;
  queue: number;
}

/** `AUTH_HASH_CONCURRENCY` (1..256, default half the CPUs, at least 1) and `AUTH_HASH_QUEUE` (0..100000, default 64). */
export function hashLimitsFromEnv(env: Record<string, string | undefined>, cpus = availableParallelism()): HashLimits {
  return {
    concurrency: wholeNumberSetting(env, "AUTH_HASH_CONCURRENCY", { fallback: Math.max(1, Math.floor(cpus / 2)), min: 1, max: 256, unit: "hashes" }),
    queue: wholeNumberSetting(env, "AUTH_HASH_QUEUE", { fallback: 64, min: 0, max: 100_000, unit: "waiting hashes" }),
  };
}

export function createHashLimiter({ concurrency, queue }: HashLimits): HashLimiter {
  let running = 0;
  const waiting: (() => void)[] = [];
  // A finished task hands its slot to the first waiter, so a newcomer cannot slip in between.
  const release = () => {
    const waiter = waiting.shift();
    if (waiter) waiter();
    else running--;
  };
  return {
    async run(task) {
      if (running < concurrency) running++;
      else if (waiting.length < queue) await new Promise<void>((resolve) => waiting.push(resolve));
      else throw serviceError(Code.Unavailable, AuthErrorKey.busy, "Too many password checks in progress: retry in a second", { retryAfterSeconds: 1 });
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
