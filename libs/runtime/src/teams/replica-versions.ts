// Which of core's changes a team replica has applied, so a redelivered older event never undoes a
// newer one. Events are applied as they arrive, and one that failed is retried after later ones
// went through (JetStream redelivers after a delay): without this, a retried `team.updated` could
// bring back a deleted team, or an older `user.teams.changed` put back the memberships a newer one
// took away. Each event carries core's outbox sequence (`seq`), which orders core's changes of one
// thing (writers of one row take turns, and enqueue after their write). The replica remembers the
// highest seq applied per thing; a deletion's seq stays as a tombstone, and a customer's deletion
// makes every older event of that customer stale.
import type { Knex } from "knex";

const TABLE = "team_replica_version";

export async function createReplicaVersionTable(knex: Knex): Promise<void> {
  await knex.schema.createTable(TABLE, (t) => {
    t.text("key").primary();
    t.bigInteger("customer_id").notNullable();
    t.bigInteger("version").notNullable();
  });
  await knex.raw(`CREATE INDEX ${TABLE}_customer_idx ON ${TABLE} (customer_id)`);
}

/** The things an event changes (`team:<id>`, `user-teams:<userId>` ...), all of one customer. */
export interface VersionedChange {
  customerId: number;
  keys: readonly string[];
}

export const customerKey = (customerId: number) => `customer:${customerId}`;

/**
 * In the event's transaction: true when the event is older than what the replica already applied
 * for one of its keys, or than its customer's deletion (then it must not be applied). Otherwise
 * records `seq` for its keys and returns false. Serialised per key, so concurrent deliveries of
 * events about one thing cannot both pass.
 */
export async function isStale(trx: Knex.Transaction, change: VersionedChange, seq: number): Promise<boolean> {
  const keys = [...new Set(change.keys)].sort();
  const customer = customerKey(change.customerId);
  // The customer's key first, always (one lock order): its deletion takes it exclusively, every
  // other event of the customer shared, so an event never commits rows past a concurrent deletion.
  await trx.raw(`SELECT pg_advisory_xact_lock${keys.includes(customer) ? "" : "_shared"}(hashtextextended(?, 0))`, [`${TABLE}:${customer}`]);
  for (const key of keys) if (key !== customer) await trx.raw("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [`${TABLE}:${key}`]);
  const known: { key: string; version: string | number }[] = await trx(TABLE)
    .whereRaw("key = any(?)", [[...keys, customerKey(change.customerId)]])
    .select("key", "version");
  const stale = known.some((row) => (row.key === customerKey(change.customerId) && !keys.includes(row.key) ? Number(row.version) > seq : Number(row.version) >= seq));
  if (stale) return true;
  await trx(TABLE)
    .insert(keys.map((key) => ({ key, customer_id: change.customerId, version: seq })))
    .onConflict("key")
    .merge(["version"]);
  return false;
}

/**
 * Holds the customer's replica key exclusively until the transaction ends, as a customer's deletion
 * does in isStale: another transaction deleting the customer's rows (a service's tenant purge on
 * customer.deleted) then never interleaves with one of its team events.
 */
export async function lockCustomerReplica(trx: Knex.Transaction, customerId: number): Promise<void> {
  await trx.raw("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [`${TABLE}:${customerKey(customerId)}`]);
}

/** After a customer's deletion: its per-thing versions go, its own key stays as the tombstone. */
export async function forgetCustomerVersions(trx: Knex.Transaction, customerId: number): Promise<void> {
  await trx(TABLE).where({ customer_id: customerId }).whereNot({ key: customerKey(customerId) }).delete();
}

/** Of `teamIds`, those the replica saw and no longer has: deleted (their version stays as the tombstone). */
export async function deletedTeams(trx: Knex.Transaction, teamIds: readonly string[]): Promise<Set<string>> {
  if (teamIds.length === 0) return new Set();
  const seen: { key: string }[] = await trx(TABLE).whereRaw("key = any(?)", [teamIds.map((id) => `team:${id}`)]).select("key");
  if (seen.length === 0) return new Set();
  const present: { id: string }[] = await trx("team").whereRaw("id::text = any(?)", [[...teamIds]]).select("id");
  const kept = new Set(present.map((row) => row.id));
  return new Set(seen.map((row) => row.key.slice("team:".length)).filter((id) => !kept.has(id)));
}

/**
 * For a write of teams into the replica outside its events (a team core just told about, before
 * its team.created arrived): takes the keys as isStale does, until the transaction ends, and
 * returns those of `teamIds` the replica must not add: teams it saw deleted (their version stays
 * as the tombstone), or all of them once the customer is deleted. Core's answer may predate a
 * deletion the replica has applied meanwhile; team ids are never reused.
 */
export async function teamsGoneFromReplica(trx: Knex.Transaction, customerId: number, teamIds: readonly string[]): Promise<Set<string>> {
  const ids = [...new Set(teamIds)].sort();
  if (ids.length === 0) return new Set();
  const customer = customerKey(customerId);
  await trx.raw("SELECT pg_advisory_xact_lock_shared(hashtextextended(?, 0))", [`${TABLE}:${customer}`]);
  for (const id of ids) await trx.raw("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [`${TABLE}:team:${id}`]);
  if (await trx(TABLE).where({ key: customer }).first("key")) return new Set(ids);
  return deletedTeams(trx, ids);
}
