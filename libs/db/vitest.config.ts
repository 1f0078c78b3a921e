import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Embedded postgres initdb + start takes a few seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
