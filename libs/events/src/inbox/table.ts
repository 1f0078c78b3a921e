import type { Knex } from "knex";

export interface InboxTableOptions {
  /** Default `event_inbox`. */
  table?: string;
  /** Schema holding the table; default: the connection's search_path. */
  schema?: string;
}

export const DEFAULT_INBOX_TABLE = "event_inbox";

/** Query builder for the inbox table, on `db` (a knex instance or a transaction). */
export function inboxTable(db: Knex | Knex.Transaction, opts: InboxTableOptions = {}): Knex.QueryBuilder {
  const qb = db(opts.table ?? DEFAULT_INBOX_TABLE);
  return opts.schema ? qb.withSchema(opts.schema) : qb;
}

function schemaBuilder(knex: Knex, opts: InboxTableOptions): Knex.SchemaBuilder {
  return opts.schema ? knex.schema.withSchema(opts.schema) : knex.schema;
}

/**
 * Migration helper: call from a service's migration `up` so the inbox lives in
 * the service's own schema. Idempotent, so it can be added to an existing service.
 */
export async function createInboxTable(knex: Knex, opts: InboxTableOptions = {}): Promise<void> {
  const table = opts.table ?? DEFAULT_INBOX_TABLE;
  if (await schemaBuilder(knex, opts).hasTable(table)) return;
  await schemaBuilder(knex, opts).createTable(table, (t) => {
    t.text("consumer").notNullable();
    t.text("event_id").notNullable();
    t.timestamp("processed_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["consumer", "event_id"]);
    // Supports pruneInbox().
    t.index(["processed_at"]);
  });
}

/** Migration helper for `down`. */
export async function dropInboxTable(knex: Knex, opts: InboxTableOptions = {}): Promise<void> {
  await schemaBuilder(knex, opts).dropTableIfExists(opts.table ?? DEFAULT_INBOX_TABLE);
}
