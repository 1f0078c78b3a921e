import type { Knex } from "knex";

/**
 * Runs `fn` in a transaction: commit on resolve, rollback on throw. Accepts a
 * transaction too (knex nests it as a savepoint), so helpers compose.
 */
export function withTransaction<T>(
  knex: Knex | Knex.Transaction,
  fn: (trx: Knex.Transaction) => Promise<T>,
  config?: Knex.TransactionConfig,
): Promise<T> {
  return knex.transaction(fn, config);
}
