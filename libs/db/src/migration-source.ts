import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Knex } from "knex";

export interface MigrationFile {
  /** Stored in knex_migrations; the extension is dropped so a later .ts -> .js build keeps history valid. */
  name: string;
  file: string;
}

const EXTENSIONS = [".ts", ".js", ".mjs"];

/**
 * Why not knex's FsMigrations: its loader calls `import()` from inside knex
 * (a CommonJS file in node_modules). Under `node --import tsx` that works, but
 * vitest does not transform node_modules, so Node 20 sees a raw `.ts` file and
 * fails with ERR_UNKNOWN_FILE_EXTENSION. Importing from *this* module goes
 * through whichever TS loader is active (tsx hooks or vitest's module runner).
 */
export function createMigrationSource(dir: string | URL): Knex.MigrationSource<MigrationFile> {
  const directory = typeof dir === "string" ? path.resolve(dir) : fileURLToPath(dir);
  return {
    getMigrations: () => listMigrations(directory),
    getMigrationName: (m) => m.name,
    getMigration: (m) => loadMigration(m.file),
  };
}

export async function listMigrations(directory: string): Promise<MigrationFile[]> {
  let entries: string[];
  try {
    entries = await readdir(directory);
  } catch (err) {
    throw new Error(`Cannot read migrations directory ${directory}: ${(err as Error).message}`);
  }
  const files = entries
    .filter((f) => EXTENSIONS.includes(path.extname(f)) && !f.endsWith(".d.ts"))
    // Code-point order, not locale order: timestamp prefixes must sort identically everywhere.
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

  const seen = new Map<string, string>();
  return files.map((f) => {
    const name = f.slice(0, -path.extname(f).length);
    const dup = seen.get(name);
    if (dup) throw new Error(`Duplicate migration name "${name}": ${dup} and ${f} in ${directory}`);
    seen.set(name, f);
    return { name, file: path.join(directory, f) };
  });
}

async function loadMigration(file: string): Promise<Knex.Migration> {
  let mod: Record<string, unknown>;
  try {
    mod = await import(/* @vite-ignore */ pathToFileURL(file).href);
  } catch (err) {
    const hint = file.endsWith(".ts") ? " (is the process running under `node --import tsx`?)" : "";
    throw new Error(`Failed to import migration ${file}${hint}: ${(err as Error).message}`, { cause: err });
  }
  // Accept `export default { up, down }` too; ESM named exports are the convention.
  const candidate = (typeof mod.up === "function" ? mod : mod.default) as Partial<Knex.Migration> | undefined;
  if (!candidate || typeof candidate.up !== "function") {
    throw new Error(`Migration ${file} must export an async function up(knex)`);
  }
  return candidate as Knex.Migration;
}
