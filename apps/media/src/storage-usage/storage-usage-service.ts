// StorageUsageService (internal): core fills the computed Customer storage
// fields of a whole page with one call of GetStorageUsage.
import { Code, type ServiceImpl } from "@connectrpc/connect";
import type { Knex } from "knex";
import { AuthErrorKey, requireAuth, serviceError } from "@signage/auth";
import type { StorageUsageService } from "@signage/contracts/signage/media/v1/storage_usage_pb";
import { rowIdOf } from "@signage/runtime";
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

/** A requested id as a number; one no customer can have is the caller's 400 (as every customerId selector, libs/auth). */
const customerIdOf = (id: bigint) =>
  rowIdOf(id, (sent) => serviceError(Code.InvalidArgument, AuthErrorKey.customerIdInvalid, `customerIds must be positive ids; got ${sent}`, { customerId: sent }));
