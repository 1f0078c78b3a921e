import pg from "pg";
import { quoteIdentifier } from "../identifiers.js";

export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${quoteIdentifier(database)}`);
  } finally {
    await client.end();
  }
}
