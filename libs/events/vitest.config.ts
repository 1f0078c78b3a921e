import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Real NATS and PostgreSQL: allow for slow shared CI servers.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
