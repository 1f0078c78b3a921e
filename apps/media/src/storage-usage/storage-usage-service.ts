// StorageUsageService (internal): core fills the computed Customer storage
// fields of a whole page with one call of GetStorageUsage.
import { Code, type ServiceImpl } from "@connectrpc/connect";
import type { Knex } from "knex";
import { AuthErrorKey, requireAuth, serviceError } from "@signage/auth";
import type { StorageUsageService } from "@signage/contracts/signage/media/v1/storage_usage_pb";
import { filesBytesByCustomer } from "./storage-usage-query.js";

export function storageUsageService(knex: Knex): Partial<ServiceImpl<typeof StorageUsageService>> {
  return {
    async getStorageUsage(req, ctx) {
      const { scope } = requireAuth(ctx);
      const usage = await filesBytesByCustomer(knex, scope, req.customerIds.map(customerIdOf));
      return { usages: [...usage].map(([customerId, filesBytes]) => ({ customerId: BigInt(customerId), filesBytes })) };
    },
  };
}

/**
 * A requested id as a number: a customer id is positive and within JavaScript's safe integers
 * (as every customerId selector, libs/auth). Anything else is a 400, never rounded to another
 * customer's id (2^53 + 1) nor sent to PostgreSQL beyond its bigint (a 500).
 */
function customerIdOf(id: bigint): number {
  if (id < 1n || id > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw serviceError(Code.InvalidArgument, AuthErrorKey.customerIdInvalid, `customerIds must be positive ids; got ${id}`, { customerId: id.toString() });
  }
  return Number(id);
}
