// Each service's copy of the tenant directory, kept from customer.* events so
// scope resolution (network owner -> members) needs no call to core.
import type { Knex } from "knex";
import type { TenantDirectory } from "@signage/auth";

export interface TenantFacts {
  id: number;
  ownerSubresellerId: number | null;
  networkOwner: boolean;
  restricted: boolean;
}

/** Migration helper: the `tenant` replica table in the service's own schema. */
export async function createTenantReplicaTable(knex: Knex): Promise<void> {
  await knex.schema.createTable("tenant", (t) => {
    t.bigInteger("customer_id").primary();
    t.bigInteger("owner_subreseller_id");
    t.boolean("network_owner").notNullable().defaultTo(false);
    t.boolean("restricted").notNullable().defaultTo(false);
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw("CREATE INDEX tenant_owner_idx ON tenant (owner_subreseller_id) WHERE owner_subreseller_id IS NOT NULL");
}

export async function upsertTenant(trx: Knex | Knex.Transaction, t: TenantFacts): Promise<void> {
  await trx("tenant")
    .insert({ customer_id: t.id, owner_subreseller_id: t.ownerSubresellerId, network_owner: t.networkOwner, restricted: t.restricted, updated_at: new Date() })
    .onConflict("customer_id")
    .merge();
}

export function createReplicaTenantDirectory(knex: Knex): TenantDirectory {
  return {
    async membersOf(networkOwnerId) {
      const rows = await knex("tenant").where({ owner_subreseller_id: networkOwnerId }).select("customer_id");
      return rows.map((r: { customer_id: number }) => Number(r.customer_id));
    },
  };
}
