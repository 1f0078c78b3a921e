// The other end of remote-get.ts: a lean GET client in its own process, timing
// each request itself and answering over IPC.
import { performance } from "node:perf_hooks";
import { createLeanGet } from "./lean-get.js";

interface Ask {
  id: number;
  path: string;
  headers: Record<string, string>;
}

const client = createLeanGet(process.argv[2]);
process.on("message", async ({ id, path, headers }: Ask) => {
  const started = performance.now();
  try {
    const { status, bytes } = await client.get(path, headers);
    process.send!({ id, status, bytes, ms: performance.now() - started });
  } catch (error) {
    process.send!({ id, error: String(error) });
  }
});
process.on("disconnect", () => {
  client.close();
  process.exit(0);
});
