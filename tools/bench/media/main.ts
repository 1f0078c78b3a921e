// `npm run bench:media`: upload throughput (upload.ts) and, when present,
// the file list latency (list.ts, H4's benchFileList), in one run.
// BENCH_MEDIA_PARTS=upload (or =list) runs only that part; default: both.
import { existsSync } from "node:fs";
import { benchUploads } from "./upload.js";

const parts = new Set((process.env.BENCH_MEDIA_PARTS || "upload,list").split(",").map((p) => p.trim()));
if (parts.has("upload")) await benchUploads();
const listBench = new URL("./list.ts", import.meta.url);
if (parts.has("list") && existsSync(listBench)) {
  const { benchFileList } = (await import(listBench.href)) as { benchFileList: () => Promise<void> };
  await benchFileList();
}
process.exit(0);
