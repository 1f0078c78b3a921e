// Bytes of uploaded files per customer, kept up to date by the database: the
// storage quota of every upload ("storageSize | long | bytes, null = unlimited";
// 507 when it would be exceeded) and the storage statistics read one row by
// primary key (storage_usage) instead of summing all of the customer's files.
//
// Triggers on `file` record what each statement adds or removes, whoever runs it
// (uploads, deletes, folder deletes and their cascades, the validity sweep, a
// customer's purge), as rows of storage_usage_delta; statement-level with
// transition tables, so a 100,000-file folder delete is one delta per customer.
// Inserting a delta locks nothing anyone waits for. A deferred constraint
// trigger folds each delta into storage_usage when its transaction commits:
// the total is exact at every commit, and its row is locked only at the very
// end of a transaction, so no transaction holds it while it waits for a file or
// folder row (no lock-order deadlock with folder deletes and uploads into them).
// An upload that must not overshoot its quota takes the row itself as its last
// step (uploads/quota.ts): concurrent uploads of a customer check in turn.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("storage_usage", (t) => {
    t.bigInteger("customer_id").primary();
    t.bigInteger("files_bytes").notNullable().defaultTo(0);
  });
  // Uncommitted changes only: each is folded (and deleted) by the transaction that wrote it.
  await knex.schema.createTable("storage_usage_delta", (t) => {
    t.bigIncrements("id").primary();
    t.bigInteger("customer_id").notNullable();
    t.bigInteger("bytes").notNullable();
  });
  await knex.raw("CREATE INDEX storage_usage_delta_customer_idx ON storage_usage_delta (customer_id)");

  await knex.raw(`
    CREATE FUNCTION storage_usage_files_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- Customers in id order: the folds at commit lock their totals in this order too.
      INSERT INTO storage_usage_delta (customer_id, bytes)
        SELECT customer_id, sum(size) FROM inserted_files GROUP BY customer_id ORDER BY customer_id;
      RETURN NULL;
    END $$`);
  await knex.raw(`
    CREATE FUNCTION storage_usage_files_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO storage_usage_delta (customer_id, bytes)
        SELECT customer_id, -sum(size) FROM deleted_files GROUP BY customer_id ORDER BY customer_id;
      RETURN NULL;
    END $$`);
  await knex.raw(`
    CREATE FUNCTION storage_usage_file_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO storage_usage_delta (customer_id, bytes) VALUES (OLD.customer_id, -OLD.size), (NEW.customer_id, NEW.size);
      RETURN NULL;
    END $$`);
  await knex.raw(`
    CREATE FUNCTION storage_usage_files_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM storage_usage_delta;
      UPDATE storage_usage SET files_bytes = 0 WHERE files_bytes <> 0;
      RETURN NULL;
    END $$`);
  await knex.raw(`
    CREATE FUNCTION storage_usage_fold() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- Gone already: taken back (a customer's purge, a truncate) before the commit.
      DELETE FROM storage_usage_delta WHERE id = NEW.id;
      IF NOT FOUND OR NEW.bytes = 0 THEN RETURN NULL; END IF;
      INSERT INTO storage_usage AS u (customer_id, files_bytes) VALUES (NEW.customer_id, NEW.bytes)
      ON CONFLICT (customer_id) DO UPDATE SET files_bytes = u.files_bytes + excluded.files_bytes;
      RETURN NULL;
    END $$`);

  // No file row may come or go between the sum below and the triggers taking over
  // (a replica of the previous version may still be serving): writers wait for this commit.
  await knex.raw("LOCK TABLE file IN SHARE ROW EXCLUSIVE MODE");
  await knex.raw("INSERT INTO storage_usage (customer_id, files_bytes) SELECT customer_id, sum(size) FROM file GROUP BY customer_id");
  await knex.raw(`CREATE TRIGGER storage_usage_insert AFTER INSERT ON file REFERENCING NEW TABLE AS inserted_files
    FOR EACH STATEMENT EXECUTE FUNCTION storage_usage_files_inserted()`);
  await knex.raw(`CREATE TRIGGER storage_usage_delete AFTER DELETE ON file REFERENCING OLD TABLE AS deleted_files
    FOR EACH STATEMENT EXECUTE FUNCTION storage_usage_files_deleted()`);
  // Nothing changes a file's size or customer today; if something does, the total follows.
  await knex.raw(`CREATE TRIGGER storage_usage_update AFTER UPDATE OF size, customer_id ON file FOR EACH ROW
    WHEN (OLD.size IS DISTINCT FROM NEW.size OR OLD.customer_id IS DISTINCT FROM NEW.customer_id)
    EXECUTE FUNCTION storage_usage_file_changed()`);
  await knex.raw("CREATE TRIGGER storage_usage_truncate AFTER TRUNCATE ON file FOR EACH STATEMENT EXECUTE FUNCTION storage_usage_files_truncated()");
  await knex.raw(`CREATE CONSTRAINT TRIGGER storage_usage_fold AFTER INSERT ON storage_usage_delta
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION storage_usage_fold()`);
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ["insert", "delete", "update", "truncate"]) await knex.raw(`DROP TRIGGER IF EXISTS storage_usage_${t} ON file`);
  await knex.schema.dropTableIfExists("storage_usage_delta");
  await knex.schema.dropTableIfExists("storage_usage");
  for (const f of ["storage_usage_files_inserted", "storage_usage_files_deleted", "storage_usage_file_changed", "storage_usage_files_truncated", "storage_usage_fold"]) {
    await knex.raw(`DROP FUNCTION IF EXISTS ${f}()`);
  }
}
