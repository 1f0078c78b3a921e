// Argon2 on request paths runs at most AUTH_HASH_CONCURRENCY at once, AUTH_HASH_QUEUE waiting;
// beyond that a call is refused at once with 503 auth.error.busy and Retry-After (users/hash-limiter.ts).
// Each check costs ~10 ms of CPU: unbounded, password spraying across usernames (which the
// per-account count does not bound) would take every core from the rest of core's calls.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConnectError, Code } from "@connectrpc/connect";
import { readErrorDetail } from "@signage/auth";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";
import { coreModule } from "../src/module.js";
import { createHashLimiter, hashLimitsFromEnv } from "../src/users/hash-limiter.js";
import { limitedPasswordHasher } from "../src/users/passwords.js";
import { errorBody } from "./error-body.js";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
const tick = () => new Promise((r) => setImmediate(r));

describe("the hash limiter", () => {
  it("runs `concurrency` tasks, queues `queue` more, refuses the rest at once with Unavailable auth.error.busy; a finished task hands its slot to the first waiter", async () => {
    const limiter = createHashLimiter({ concurrency: 2, queue: 1 });
    const started: number[] = [];
    const gates = [0, 1, 2, 3, 4].map(() => deferred());
    const task = (i: number) => () => {
      started.push(i);
      return gates[i].promise.then(() => i);
    };
    const results = [0, 1, 2].map((i) => limiter.run(task(i)));
    const refused = await limiter.run(task(3)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConnectError);
    expect((refused as ConnectError).code).toBe(Code.Unavailable);
    expect(readErrorDetail(refused)).toEqual({ key: "auth.error.busy", details: { retryAfterSeconds: 1 } });
    await tick();
    expect(started).toEqual([0, 1]);

    gates[0].resolve();
    await tick();
    // The waiter got the finished task's slot; a newcomer now waits for the next one.
    expect(started).toEqual([0, 1, 2]);
    const late = limiter.run(task(4));
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[1].resolve();
    await tick();
    expect(started).toEqual([0, 1, 2, 4]);
    gates[2].resolve();
    gates[4].resolve();
    await expect(Promise.all([...results, late])).resolves.toEqual([0, 1, 2, 4]);
  });

  it("a task that fails frees its slot; a caller gone while waiting leaves the queue and its task never runs", async () => {
    const limiter = createHashLimiter({ concurrency: 1, queue: 2 });
    await expect(limiter.run(() => Promise.reject(new Error("hash failed")))).rejects.toThrow("hash failed");
    const gate = deferred();
    const first = limiter.run(() => gate.promise);
    const gone = new AbortController();
    let ran = false;
    const abandoned = limiter.run(async () => void (ran = true), gone.signal);
    const next = limiter.run(async () => "next");
    gone.abort(new Error("client went away"));
    await expect(abandoned).rejects.toMatchObject({ code: Code.Canceled });
    gate.resolve();
    await expect(Promise.all([first, next])).resolves.toEqual([undefined, "next"]);
    expect(ran).toBe(false);
  });

  it("admitted work holds a slot only while it hashes: its database reads do not keep another caller's hash waiting; admission is what refuses", async () => {
    const limiter = createHashLimiter({ concurrency: 1, queue: 1 });
    const reads = deferred();
    const first = limiter.admit(async (slot) => {
      await reads.promise;
      return slot(async () => "first hashed");
    });
    await expect(limiter.admit((slot) => slot(async () => "second hashed"))).resolves.toBe("second hashed");
    const third = limiter.admit(async () => "never");
    const fourth = limiter.admit(async () => "never");
    await expect(third).resolves.toBe("never");
    await expect(fourth).rejects.toMatchObject({ code: Code.Unavailable });
    reads.resolve();
    await expect(first).resolves.toBe("first hashed");
  });

  it("logins (the token grants) and authenticated callers' hashing have a limiter each: a login spray does not hold off creating users or resetting passwords", async () => {
    const hasher = limitedPasswordHasher({ concurrency: 1, queue: 0 });
    const never = new Promise<never>(() => {});
    void hasher.login.withCheck(() => never);
    await expect(hasher.login.withCheck(async () => true)).rejects.toMatchObject({ code: Code.Unavailable });
    await expect(hasher.account.hash("a-new-password")).resolves.toMatch(/^\$argon2id\$/);
  });

  it("AUTH_HASH_CONCURRENCY defaults to half the CPUs, 1 to 2 (two limiters share libuv's threadpool of 4), AUTH_HASH_QUEUE to 64; anything but a whole number in range stops start-up", () => {
    expect(hashLimitsFromEnv({}, 2)).toEqual({ concurrency: 1, queue: 64 });
    expect(hashLimitsFromEnv({}, 1)).toEqual({ concurrency: 1, queue: 64 });
    expect(hashLimitsFromEnv({}, 4)).toEqual({ concurrency: 2, queue: 64 });
    expect(hashLimitsFromEnv({}, 16)).toEqual({ concurrency: 2, queue: 64 });
    expect(hashLimitsFromEnv({ AUTH_HASH_CONCURRENCY: "3", AUTH_HASH_QUEUE: "0" }, 8)).toEqual({ concurrency: 3, queue: 0 });
    for (const [name, value] of [["AUTH_HASH_CONCURRENCY", "0"], ["AUTH_HASH_CONCURRENCY", "65"], ["AUTH_HASH_QUEUE", "-1"], ["AUTH_HASH_CONCURRENCY", "two"]]) {
      expect(() => hashLimitsFromEnv({ [name]: value }), `${name}=${value}`).toThrow(name);
    }
  });
});

describe("logins beyond the limit (one check at a time, none waiting)", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startPlatform({
      modules: [coreModule],
      prefix: "core_hash_limiter_test",
      env: { AUTH_HASH_CONCURRENCY: "1", AUTH_HASH_QUEUE: "0", AUTH_MAX_PASSWORD_FAILURES: "50" },
    });
  });
  afterAll(() => platform?.close());

  const passwordGrant = (username: string, password: string) => platform.http.post("/oauth/token", { body: new URLSearchParams({ grant_type: "password", username, password }) });

  it("answer 503 auth.error.busy with Retry-After (OAuth error temporarily_unavailable); a refused guess is not counted against the account", async () => {
    const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const user = await createUser(platform.http, admin, (await createCustomer(platform.http, admin)).id, "VIEWER");
    const answers = await Promise.all(Array.from({ length: 8 }, () => passwordGrant(user.email, "wrong-password")));
    const busy = answers.filter((r) => r.status === 503);
    const checked = answers.filter((r) => r.status === 400);
    expect(busy.length + checked.length).toBe(answers.length);
    expect(busy.length).toBeGreaterThan(0);
    for (const res of busy) {
      expect(res.body).toMatchObject(errorBody(503, "auth.error.busy"));
      expect(res.body.error).toBe("temporarily_unavailable");
      expect(res.headers.get("retry-after")).toBe("1");
    }
    // The count per username and client address (password-throttle.ts; this address, where the user logged in, is exempt from the account's count).
    const counted = await platform.knexOf("core")("auth_attempt").where("subject", "like", "password:%@%").select("failures");
    expect(counted).toEqual([{ failures: checked.length }]);
    expect((await passwordGrant(user.email, user.password)).status).toBe(200);
  });
});
