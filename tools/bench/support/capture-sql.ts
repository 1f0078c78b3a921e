// Benchmarks compare a request with "the same SQL run directly": this records
// what a Knex instance sent while `run` executed, leaving out background
// pollers (outbox relay, inbox, upload sweeps) and transaction brackets.
import type { Knex } from "knex";

export type Statement = { sql: string; bindings: unknown[] };

const BACKGROUND = /event_outbox|event_inbox|upload_session|blob_intent|^\s*(BEGIN|COMMIT|ROLLBACK)\b/i;

export async function captureSql(knex: Knex, run: () => Promise<unknown>): Promise<Statement[]> {
  const seen: Statement[] = [];
  const listener = (q: { sql: string; bindings?: unknown[] }) => {
    if (!BACKGROUND.test(q.sql)) seen.push({ sql: q.sql, bindings: q.bindings ?? [] });
  };
  knex.on("query", listener);
  try {
    await run();
  } finally {
    knex.off("query", listener);
  }
  // pg's Knex client reports the statement as sent ($1 placeholders).
  return seen;
}
