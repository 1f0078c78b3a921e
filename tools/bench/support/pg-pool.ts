// Knex's pool handing out its raw pg connections: benchmarks replay captured statements on them
// exactly as sent ($n placeholders), without Knex's own query building in the figure.
export type PgConnection = { query(sql: string, values: unknown[]): Promise<{ rows: unknown[] }> };
export type PgPool = { acquireConnection(): Promise<PgConnection>; releaseConnection(connection: PgConnection): Promise<void> };
