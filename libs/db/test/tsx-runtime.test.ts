import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../src/testing/vitest.js";

const run = promisify(execFile);
const script = fileURLToPath(new URL("./fixtures/migrate-under-tsx.ts", import.meta.url));

describe("production runtime (node --import tsx)", () => {
  const t = useTestDatabase({ prefix: "db_tsx" });

  it("loads .ts ESM migrations outside vitest", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", script, t.url, "core"], { timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual(["20240101000000_create_items", "20240102000000_add_counter"]);
  });
});
