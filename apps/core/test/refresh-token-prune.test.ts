// Refresh token housekeeping (src/oauth/refresh-token-prune.ts): whole logins (families) are
// deleted once none of their tokens can be presented to any effect, plus the retention period
// (REFRESH_TOKEN_RETENTION_DAYS, default 7): the newest expiry more than that in the past, or
// every token revoked and the latest revocation more than that in the past. Everything else stays,
// the long-expired rotated rows of a live login too, whose replay still revokes that login.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ConnectError } from "@connectrpc/connect";
import type { Knex } from "knex";
import type { PeriodicJobOptions } from "@signage/runtime";
import { startPlatform, type TestPlatform } from "@signage/testing";
import { coreModule } from "../src/module.js";
import {
  pruneRefreshTokens,
  REFRESH_TOKEN_PRUNE_FIRST_ROUND_MS,
  REFRESH_TOKEN_PRUNE_INTERVAL_MS,
  refreshTokenPruneRound,
  refreshTokenRetentionDaysFromEnv,
} from "../src/oauth/refresh-token-prune.js";
import { hashToken } from "../src/oauth/refresh-tokens.js";
import { ADMIN, startCore, type CoreHarness } from "./support.js";

// Every job a module schedules in this file, and whether it was stopped.
const scheduled = vi.hoisted(() => [] as (PeriodicJobOptions & { stopped: boolean })[]);
vi.mock("@signage/runtime", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@signage/runtime")>();
  return {
    ...actual,
    schedulePeriodicJob(options: PeriodicJobOptions) {
      const job = actual.schedulePeriodicJob(options);
      const entry = { ...options, stopped: false };
      scheduled.push(entry);
      return {
        async stop() {
          await job.stop();
          entry.stopped = true;
        },
      };
    },
  };
});

const DAY = 24 * 3600 * 1000;
const NOW = Date.UTC(2030, 0, 15, 12);
const LOCK = "SELECT pg_advisory_xact_lock(hashtext('core'), hashtext('refresh-token-prune'))";

interface TokenSpec {
  /** expires_at relative to NOW. */
  expires: number;
  rotated?: boolean;
  /** revoked_at relative to NOW. */
  revoked?: number;
}

let core: CoreHarness;
let knex: Knex;
let adminId: string;

beforeAll(async () => {
  core = await startCore();
  knex = core.knex;
  adminId = (await knex("app_user").whereRaw("lower(email) = lower(?)", [ADMIN.email]).first("id")).id;
});
afterAll(async () => {
  await core?.close();
});

/** A family with these tokens (oldest first), times relative to `now`; its id. */
async function family(tokens: TokenSpec[], now = NOW): Promise<string> {
  const familyId = randomUUID();
  await knex("refresh_token").insert(
    tokens.map((t, i) => ({
      id: randomUUID(),
      token_hash: hashToken(randomUUID()),
      user_id: adminId,
      family_id: familyId,
      expires_at: new Date(now + t.expires),
      created_at: new Date(now + t.expires - 30 * DAY),
      rotated_at: t.rotated ? new Date(now + t.expires - 30 * DAY + 1000 * (i + 1)) : null,
      revoked_at: t.revoked === undefined ? null : new Date(now + t.revoked),
    })),
  );
  return familyId;
}

async function rowsOf(familyId: string, db: Knex = knex): Promise<number> {
  const row = await db("refresh_token").where({ family_id: familyId }).count<{ n: string }[]>("* as n").first();
  return Number(row!.n);
}

async function clear() {
  await knex("refresh_token").del();
}

function grantError(err: unknown): string {
  expect(err).toBeInstanceOf(ConnectError);
  return (err as ConnectError).rawMessage;
}

describe("which logins go", () => {
  it("deletes whole families past the retention period and keeps every other", async () => {
    await clear();
    const kept = {
      live: await family([{ expires: 25 * DAY }]),
      // A login in use for months: its early rotated tokens expired long ago, its newest is valid.
      liveWithOldHistory: await family([{ expires: -90 * DAY, rotated: true }, { expires: -60 * DAY, rotated: true }, { expires: -8 * DAY, rotated: true }, { expires: 20 * DAY }]),
      expiredWithinRetention: await family([{ expires: -20 * DAY, rotated: true }, { expires: -6 * DAY }]),
      expiredAtTheCutoff: await family([{ expires: -7 * DAY }]),
      revokedRecently: await family([{ expires: 10 * DAY, rotated: true, revoked: -1 * DAY }, { expires: 25 * DAY, revoked: -1 * DAY }]),
      // Revoked in two steps: the latest revocation counts.
      revokedLastWithinRetention: await family([{ expires: 5 * DAY, rotated: true, revoked: -30 * DAY }, { expires: 20 * DAY, revoked: -2 * DAY }]),
      // Its older tokens revoked, its newest not (a refresh that raced a logout): still usable.
      partlyRevoked: await family([{ expires: -5 * DAY, rotated: true, revoked: -30 * DAY }, { expires: 10 * DAY }]),
      // Its newest token revoked long ago, an older one never (a single-token revoke of older
      // versions): presenting that one is a replay, which still revokes and is logged.
      newestRevokedOlderNot: await family([{ expires: 5 * DAY, rotated: true }, { expires: 20 * DAY, revoked: -10 * DAY }]),
      // The newest token expired long ago, an older one (issued with a longer lifetime) exactly at the cutoff.
      olderExpiringAtTheCutoff: await family([{ expires: -7 * DAY, rotated: true }, { expires: -9 * DAY }]),
    };
    const gone = {
      expired: await family([{ expires: -40 * DAY, rotated: true }, { expires: -20 * DAY, rotated: true }, { expires: -10 * DAY }]),
      expiredJustPastTheCutoff: await family([{ expires: -7 * DAY - 1000 }]),
      revoked: await family([{ expires: 5 * DAY, rotated: true, revoked: -8 * DAY }, { expires: 20 * DAY, rotated: true, revoked: -8 * DAY }, { expires: 25 * DAY, revoked: -8 * DAY }]),
      // Revoked recently, but its newest token expired past the retention period.
      expiredThenRevoked: await family([{ expires: -9 * DAY, revoked: -3 * DAY }]),
    };
    const counts = async (families: Record<string, string>): Promise<Record<string, number>> =>
      Object.fromEntries(await Promise.all(Object.entries(families).map(async ([k, id]) => [k, await rowsOf(id)])));
    const before = await counts(kept);

    const result = await pruneRefreshTokens(knex, { retentionDays: 7, now: NOW });

    expect(result).toEqual({ logins: 4, tokens: 8 });
    for (const [name, id] of Object.entries(gone)) expect(await rowsOf(id), name).toBe(0);
    const after = await counts(kept);
    expect(after).toEqual(before);
    expect(Object.values(after).every((n) => n > 0)).toBe(true);
    // Nothing more to do.
    expect(await pruneRefreshTokens(knex, { retentionDays: 7, now: NOW })).toEqual({ logins: 0, tokens: 0 });
  });

  it("goes by the retention period it is given", async () => {
    await clear();
    const expiredTenDaysAgo = await family([{ expires: -10 * DAY }]);
    const revokedTwoDaysAgo = await family([{ expires: 20 * DAY, revoked: -2 * DAY }]);
    expect(await pruneRefreshTokens(knex, { retentionDays: 30, now: NOW })).toEqual({ logins: 0, tokens: 0 });
    expect(await pruneRefreshTokens(knex, { retentionDays: 3, now: NOW })).toEqual({ logins: 1, tokens: 1 });
    expect(await rowsOf(expiredTenDaysAgo)).toBe(0);
    expect(await pruneRefreshTokens(knex, { retentionDays: 1, now: NOW })).toEqual({ logins: 1, tokens: 1 });
    expect(await rowsOf(revokedTwoDaysAgo)).toBe(0);
  });

  it("keeps a live login's old rotated tokens: presenting one still revokes the login", async () => {
    await clear();
    const login = await core.auth.issueToken({ grantType: "password", username: ADMIN.email, password: ADMIN.password });
    const chain: string[] = [login.refreshToken!];
    for (let i = 0; i < 3; i++) {
      const next = await core.auth.issueToken({ grantType: "refresh_token", refreshToken: chain.at(-1)! });
      chain.push(next.refreshToken!);
    }
    const first = await knex("refresh_token").where({ token_hash: hashToken(chain[0]) }).first("family_id");
    // The login is months old: its rotated tokens expired long ago (outside the reuse grace too).
    const longAgo = new Date(Date.now() - 60 * DAY);
    await knex("refresh_token")
      .whereIn("token_hash", chain.slice(0, -1).map(hashToken))
      .update({ expires_at: longAgo, rotated_at: longAgo, created_at: new Date(longAgo.getTime() - 30 * DAY) });

    expect(await pruneRefreshTokens(knex, { retentionDays: 7 })).toEqual({ logins: 0, tokens: 0 });
    expect(await rowsOf(first.family_id)).toBe(4);
    const replay = await core.auth.issueToken({ grantType: "refresh_token", refreshToken: chain[0] }).catch((e: unknown) => e);
    expect(grantError(replay)).toMatch(/reused/);
    const newest = await core.auth.issueToken({ grantType: "refresh_token", refreshToken: chain.at(-1)! }).catch((e: unknown) => e);
    expect(grantError(newest)).toMatch(/revoked/);
    // The replay's revocation is kept for the retention period, then the login goes.
    expect(await pruneRefreshTokens(knex, { retentionDays: 7 })).toEqual({ logins: 0, tokens: 0 });
    expect(await pruneRefreshTokens(knex, { retentionDays: 7, now: Date.now() + 8 * DAY })).toMatchObject({ logins: 1, tokens: 4 });
    expect(await rowsOf(first.family_id)).toBe(0);
  });
});

describe("batches", () => {
  it("loops over bounded batches until a short one", async () => {
    await clear();
    const dead: string[] = [];
    const live: string[] = [];
    for (let i = 0; i < 24; i++) {
      dead.push(await family([{ expires: -30 * DAY, rotated: true }, { expires: -(8 + i) * DAY }]));
      if (i % 4 === 0) live.push(await family([{ expires: -(8 + i) * DAY, rotated: true }, { expires: 10 * DAY }]));
    }
    const statements: string[] = [];
    const onQuery = (q: { sql: string }) => {
      if (q.sql.includes("WITH candidate")) statements.push(q.sql);
    };
    knex.on("query", onQuery);
    try {
      expect(await pruneRefreshTokens(knex, { retentionDays: 7, now: NOW, batchSize: 4 })).toEqual({ logins: 24, tokens: 48 });
    } finally {
      knex.off("query", onQuery);
    }
    // 24 families, 4 a statement: six full batches and the short (empty) one that ends the round.
    expect(statements).toHaveLength(7);
    for (const id of dead) expect(await rowsOf(id)).toBe(0);
    for (const id of live) expect(await rowsOf(id)).toBe(2);
  });

  it("moves past candidates that turn out to be kept", async () => {
    await clear();
    // Newest-looking token expired, but another token of the family is still valid: kept. They
    // come first in the candidates' order, more of them than a batch holds.
    const kept: string[] = [];
    for (let i = 0; i < 5; i++) kept.push(await family([{ expires: 5 * DAY, rotated: true }, { expires: -(40 + i) * DAY }]));
    const dead: string[] = [];
    for (let i = 0; i < 3; i++) dead.push(await family([{ expires: -(10 + i) * DAY }]));
    expect(await pruneRefreshTokens(knex, { retentionDays: 7, now: NOW, batchSize: 2 })).toEqual({ logins: 3, tokens: 3 });
    for (const id of dead) expect(await rowsOf(id)).toBe(0);
    for (const id of kept) expect(await rowsOf(id)).toBe(2);
  });

  it("ends the round after the batch in flight when aborted", async () => {
    await clear();
    for (let i = 0; i < 6; i++) await family([{ expires: -(10 + i) * DAY }]);
    const abort = new AbortController();
    abort.abort();
    expect(await pruneRefreshTokens(knex, { retentionDays: 7, now: NOW, batchSize: 2, signal: abort.signal })).toEqual({ logins: 0, tokens: 0 });
    expect(await pruneRefreshTokens(knex, { retentionDays: 7, now: NOW, batchSize: 2 })).toEqual({ logins: 6, tokens: 6 });
  });
});

describe("the plan", () => {
  it("finds candidates through the prune index and judges and deletes through the family index, no table scan", async () => {
    await clear();
    for (let i = 0; i < 3; i++) await family([{ expires: -30 * DAY, rotated: true }, { expires: -(10 + i) * DAY }]);
    const { rows: index } = await knex.raw("SELECT indisvalid FROM pg_index WHERE indexrelid = 'refresh_token_prune_idx'::regclass");
    expect(index).toEqual([{ indisvalid: true }]);
    const seen: { sql: string; bindings: unknown[] }[] = [];
    const onQuery = (q: { sql: string; bindings: unknown[] }) => {
      if (q.sql.includes("WITH candidate")) seen.push(q);
    };
    const trx = await knex.transaction();
    try {
      knex.on("query", onQuery);
      await pruneRefreshTokens(trx, { retentionDays: 7, now: NOW });
      knex.off("query", onQuery);
      expect(seen).toHaveLength(1);
      // The statement as it ran, planned as if the table were big (a tiny one is best scanned).
      await trx.raw("SET LOCAL enable_seqscan = off");
      const { sql, bindings } = seen[0];
      const { rows } = await trx.raw(`EXPLAIN (COSTS OFF) ${sql.replace(/\$\d+/g, "?")}`, bindings as Knex.RawBinding[]);
      const plan = rows.map((r: Record<string, string>) => r["QUERY PLAN"]).join("\n");
      expect(plan).toContain("refresh_token_prune_idx");
      expect(plan).toContain("refresh_token_family_idx");
      expect(plan).not.toContain("Seq Scan");
    } finally {
      knex.off("query", onQuery);
      await trx.rollback();
    }
  });
});

describe("several replicas", () => {
  it("skips the round while another prune holds the lock", async () => {
    await clear();
    const dead = await family([{ expires: -30 * DAY }]);
    const holder = await knex.transaction();
    try {
      await holder.raw(LOCK);
      expect(await pruneRefreshTokens(knex, { retentionDays: 7, now: NOW })).toBeNull();
      expect(await rowsOf(dead)).toBe(1);
    } finally {
      await holder.rollback();
    }
    expect(await pruneRefreshTokens(knex, { retentionDays: 7, now: NOW })).toEqual({ logins: 1, tokens: 1 });
  });

  it("does not run two prunes at once: the second skips instead of waiting", async () => {
    await clear();
    const dead = await family([{ expires: -30 * DAY, rotated: true }, { expires: -20 * DAY }]);
    // A row of the dead family busy in another transaction: the first prune waits on it, holding the lock.
    const busy = await knex.transaction();
    let first: Promise<unknown> | undefined;
    try {
      await busy("refresh_token").where({ family_id: dead }).forUpdate().first();
      first = pruneRefreshTokens(knex, { retentionDays: 7, now: NOW });
      await waitFor(async () => {
        // The prune's own lock (two-key form: classid, objid), not any other advisory lock (outbox relay, migrations).
        const { rows } = await knex.raw(
          `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
              AND classid = hashtext('core')::oid AND objid = hashtext('refresh-token-prune')::oid
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        return rows[0].n > 0;
      });
      const second = await Promise.race([pruneRefreshTokens(knex, { retentionDays: 7, now: NOW }), sleep(3000).then(() => "still waiting after 3 s")]);
      expect(second).toBeNull();
      expect(await rowsOf(dead)).toBe(2);
    } finally {
      await busy.commit();
    }
    expect(await first).toEqual({ logins: 1, tokens: 2 });
    expect(await rowsOf(dead)).toBe(0);
  });

  it("concurrent prunes never fail and delete every dead login once", async () => {
    await clear();
    const dead: string[] = [];
    for (let i = 0; i < 60; i++) dead.push(await family([{ expires: -40 * DAY, rotated: true }, { expires: -(8 + (i % 20)) * DAY }]));
    const live = await family([{ expires: -40 * DAY, rotated: true }, { expires: 3 * DAY }]);
    const results = await Promise.all(Array.from({ length: 5 }, () => pruneRefreshTokens(knex, { retentionDays: 7, now: NOW, batchSize: 7 })));
    const deleted = results.reduce((n, r) => n + (r?.logins ?? 0), 0);
    expect(deleted).toBe(60);
    expect(results.reduce((n, r) => n + (r?.tokens ?? 0), 0)).toBe(120);
    for (const id of dead) expect(await rowsOf(id)).toBe(0);
    expect(await rowsOf(live)).toBe(2);
  });
});

describe("the scheduled round", () => {
  it("logs one info line when it deleted something, nothing when idle or skipped", async () => {
    await clear();
    const info = vi.fn();
    // The scheduled round runs on the real clock.
    const round = refreshTokenPruneRound(knex, { retentionDays: 7 }, { info });
    await family([{ expires: -30 * DAY, rotated: true }, { expires: -20 * DAY }], Date.now());
    await family([{ expires: 10 * DAY, revoked: -10 * DAY }], Date.now());
    await round();
    expect(info).toHaveBeenCalledTimes(1);
    expect(info.mock.calls[0][0]).toMatchObject({ logins: 2, tokens: 3 });
    await round();
    expect(info).toHaveBeenCalledTimes(1);
    const skipped = await family([{ expires: -30 * DAY }], Date.now());
    const holder = await knex.transaction();
    try {
      await holder.raw(LOCK);
      await round();
      expect(await rowsOf(skipped)).toBe(1);
    } finally {
      await holder.rollback();
    }
    expect(info).toHaveBeenCalledTimes(1);
  });

  it("is scheduled hourly by the module's start and stopped by its stop, with the configured retention", async () => {
    const platform: TestPlatform = await startPlatform({ modules: [coreModule], prefix: "core_refresh_prune_test", env: { REFRESH_TOKEN_RETENTION_DAYS: "2" } });
    let closed = false;
    try {
      const job = scheduled.filter((j) => j.name === "refresh token prune").at(-1)!;
      expect(job).toMatchObject({ name: "refresh token prune", intervalMs: REFRESH_TOKEN_PRUNE_INTERVAL_MS, firstRoundAfterMs: REFRESH_TOKEN_PRUNE_FIRST_ROUND_MS, stopped: false });
      // A core restarted more often than hourly still prunes.
      expect(REFRESH_TOKEN_PRUNE_FIRST_ROUND_MS).toBeLessThan(REFRESH_TOKEN_PRUNE_INTERVAL_MS);
      expect(REFRESH_TOKEN_PRUNE_INTERVAL_MS).toBe(3600 * 1000);
      const db = platform.knexOf("core");
      const userId = (await db("app_user").first("id")).id;
      const now = Date.now();
      const insert = (expiresAgo: number) =>
        db("refresh_token")
          .insert({ id: randomUUID(), token_hash: hashToken(randomUUID()), user_id: userId, family_id: randomUUID(), expires_at: new Date(now - expiresAgo) })
          .returning("family_id");
      const [threeDays] = await insert(3 * DAY);
      const [oneDay] = await insert(1 * DAY);
      await job.run();
      expect(await rowsOf(threeDays.family_id, db)).toBe(0);
      expect(await rowsOf(oneDay.family_id, db)).toBe(1);
      await platform.close();
      closed = true;
      expect(job.stopped).toBe(true);
    } finally {
      if (!closed) await platform.close();
    }
  });
});

describe("REFRESH_TOKEN_RETENTION_DAYS", () => {
  it("takes whole days from 1, default 7", () => {
    expect(refreshTokenRetentionDaysFromEnv({})).toBe(7);
    expect(refreshTokenRetentionDaysFromEnv({ REFRESH_TOKEN_RETENTION_DAYS: "" })).toBe(7);
    expect(refreshTokenRetentionDaysFromEnv({ REFRESH_TOKEN_RETENTION_DAYS: "1" })).toBe(1);
    expect(refreshTokenRetentionDaysFromEnv({ REFRESH_TOKEN_RETENTION_DAYS: " 30 " })).toBe(30);
    for (const bad of ["0", "-1", "1.5", "7d", "abc", "1e3", "36501", "9999999"]) {
      expect(() => refreshTokenRetentionDaysFromEnv({ REFRESH_TOKEN_RETENTION_DAYS: bad }), bad).toThrow(/REFRESH_TOKEN_RETENTION_DAYS must be a whole number of days/);
    }
  });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("condition not met");
}
