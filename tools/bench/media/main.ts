// `npm run bench:media`: upload throughput (upload.ts) and, when present,
// the file list latency (list.ts, H4's benchFileList), in one run.
import { existsSync } from "node:fs";
import { benchUploads } from "./upload.js";

await benchUploads();
const listBench = new URL("./list.ts", import.meta.url);
if (existsSync(listBench)) {
  const { benchFileList } = (await import(listBench.href)) as { benchFileList: () => Promise<void> };
  await benchFileList();
}
process.exit(0);
