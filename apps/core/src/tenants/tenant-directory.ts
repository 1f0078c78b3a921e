// Core answers "which customers does this network owner own?" from its own table.
import type { Knex } from "knex";
import type { TenantDirectory } from "@signage/auth";

export function createDbTenantDirectory(knex: Knex): TenantDirectory {
  return {
    async membersOf(networkOwnerId) {
      const rows = await knex("customer").where({ owner_subreseller_id: networkOwnerId }).select("id");
      return rows.map((r: { id: number }) => Number(r.id));
    },
  };
}
