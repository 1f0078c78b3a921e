import { defineConfig } from "vitest/config";

// Integration tests against the machine's PostgreSQL and NATS, which CI shares with other
// runs: a loaded two-core machine can stretch one of them well past vitest's 5 s default.
export default defineConfig({ test: { testTimeout: 30_000, hookTimeout: 60_000 } });
