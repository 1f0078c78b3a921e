import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Settings that must survive restarts: the superuser password is fixed at
 * initdb time, and reusing the port keeps the logged URL stable.
 */
export interface EmbeddedState {
  /** Written only after a successful start, so a failed attempt never moves the port. */
  port?: number;
  password: string;
}

const FILE = "embedded-postgres.json";

export async function readState(dataDir: string): Promise<Partial<EmbeddedState>> {
  try {
    return JSON.parse(await readFile(path.join(dataDir, FILE), "utf8")) as Partial<EmbeddedState>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw err;
  }
}

export async function writeState(dataDir: string, state: EmbeddedState): Promise<void> {
  // 0600: the file holds the superuser password.
  await writeFile(path.join(dataDir, FILE), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

export function generatePassword(): string {
  return randomBytes(24).toString("hex");
}
