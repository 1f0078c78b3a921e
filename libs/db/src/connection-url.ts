/** Default server used by tests and tools when DATABASE_URL is not set. */
export const DEFAULT_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/** Same server and credentials, different database. */
export function withDatabaseName(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

/** For log lines: never print the password. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "<unparseable database url>";
  }
}
