// Pass 1 over an uploaded ZIP: the file list and the metadata the package
// rules need (root config.json, root index.html), nothing written anywhere.
import type { Readable } from "node:stream";
import { PackageError } from "./package-error.js";
import { walkZip } from "./zip-walk.js";
import type { ZipLimits } from "./zip-limits.js";

export interface PackageInspection {
  /** Checked relative paths of every file entry, in archive order. */
  files: string[];
  /** Sum of the declared uncompressed sizes. */
  uncompressedBytes: number;
  /** Text of the root config.json, when present. */
  configText?: string;
}

async function readText(stream: Readable, maxBytes: number, path: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      stream.destroy();
      throw new PackageError("invalidConfig", `${path} is larger than ${maxBytes} bytes`, { entry: path, maxBytes });
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export async function inspectPackage(zipPath: string, limits: ZipLimits): Promise<PackageInspection> {
  const files: string[] = [];
  let uncompressedBytes = 0;
  let configText: string | undefined;
  await walkZip(zipPath, limits, async (entry, open) => {
    files.push(entry.path);
    uncompressedBytes += entry.uncompressedSize;
    if (entry.path === "config.json") configText = await readText(await open(), limits.maxConfigBytes, entry.path);
  });
  return { files, uncompressedBytes, configText };
}
