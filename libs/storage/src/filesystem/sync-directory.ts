import { open } from "node:fs/promises";

/**
 * Makes the entries of a directory durable (a rename into it, a new file): fsync on the file
 * covers its bytes, not its name, and a crash right after the caller committed the blob's row
 * must not lose the name.
 */
export async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
