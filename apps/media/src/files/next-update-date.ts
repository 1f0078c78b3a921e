import type { Knex } from "knex";

/**
 * The update_date a write gives the file rows it changes. It is the version of the file in core's
 * tag index (file-tag-events.ts), so it must only grow. now() is the transaction's start: a write
 * that waited for a row while one that started later committed would stamp an older date than
 * that one's, and core would drop this state (and the file's next team change, which repeats
 * update_date) as older. clock_timestamp() is read when the row is written, after any wait, and
 * the result is at least 1 ms past the date it replaces.
 */
export function nextFileUpdateDate(db: Knex): Knex.Raw {
  return db.raw("greatest(clock_timestamp(), file.update_date + interval '1 millisecond')");
}
