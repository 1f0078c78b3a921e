// Core's tenant directory: its own customers table is the truth, so a customer
// missing here is a deleted one (its tokens are refused at once).
import type { Knex } from "knex";
import type { TenantAccess, TenantDirectory } from "@signage/auth";

export function createCustomerTenantDirectory(knex: Knex): TenantDirectory {
  return {
    async membersOf(networkOwnerId) {
      const rows = await knex("customer").where({ owner_subreseller_id: networkOwnerId }).select("id");
      return rows.map((r: { id: number }) => Number(r.id));
    },
    async access(customerId): Promise<TenantAccess> {
      const row = await knex("customer").where({ id: customerId }).select("restricted", "expiration_date", "subreseller_since").first();
      if (!row) return { restricted: false, expirationDate: null, deleted: true, networkOwner: false };
      return {
        restricted: row.restricted,
        expirationDate: row.expiration_date ? (row.expiration_date as Date).getTime() : null,
        deleted: false,
        networkOwner: row.subreseller_since !== null,
      };
    },
  };
}
