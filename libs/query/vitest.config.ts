import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Database tests create and drop their own database; allow for a slow CI machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
