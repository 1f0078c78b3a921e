// DATABASE_POOL_MAX sizes each process's connection pool (default 10, 1 to 100).
import knexFactory from "knex";
import { describe, expect, it } from "vitest";
import { buildKnexConfig } from "../src/knex-config.js";
import { silentLogger } from "../src/logger.js";

const URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const config = (env: Record<string, string>, pool?: { min: number; max: number }) => buildKnexConfig({ url: URL, schema: "pool_test", logger: silentLogger, env, pool });

describe("DATABASE_POOL_MAX", () => {
  it("defaults to 10 connections, none held while idle", () => {
    expect(config({}).pool).toEqual({ min: 0, max: 10 });
  });

  it("sets the pool's ceiling, which the knex instance uses", async () => {
    expect(config({ DATABASE_POOL_MAX: "25" }).pool).toEqual({ min: 0, max: 25 });
    const knex = knexFactory(config({ DATABASE_POOL_MAX: "3" }));
    try {
      await knex.raw("SELECT 1");
      expect(knex.client.pool.max).toBe(3);
    } finally {
      await knex.destroy();
    }
  });

  it("is read from the environment handed in only", () => {
    process.env.DATABASE_POOL_MAX = "7";
    try {
      expect(buildKnexConfig({ url: URL, schema: "pool_test", logger: silentLogger }).pool).toEqual({ min: 0, max: 10 });
    } finally {
      delete process.env.DATABASE_POOL_MAX;
    }
  });

  it("gives way to a pool the caller passes", () => {
    expect(config({ DATABASE_POOL_MAX: "25" }, { min: 1, max: 2 }).pool).toEqual({ min: 1, max: 2 });
  });

  it.each(["0", "101", "2.5", "many"])("refuses %s with a clear message", (value) => {
    expect(() => config({ DATABASE_POOL_MAX: value })).toThrow(`DATABASE_POOL_MAX must be a whole number from 1 to 100, got '${value}'`);
  });
});
