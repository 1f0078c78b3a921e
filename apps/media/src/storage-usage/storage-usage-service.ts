// StorageUsageService (internal): core fills the computed Customer storage
// fields of a whole page with one call of GetStorageUsage.
import type { ServiceImpl } from "@connectrpc/connect";
import type { Knex } from "knex";
import { requireAuth } from "@signage/auth";
import type { StorageUsageService } from "@signage/contracts/signage/media/v1/storage_usage_pb";
import { filesBytesByCustomer } from "./storage-usage-query.js";

export function storageUsageService(knex: Knex): Partial<ServiceImpl<typeof StorageUsageService>> {
  return {
    async getStorageUsage(req, ctx) {
      const { scope } = requireAuth(ctx);
      const usage = await filesBytesByCustomer(knex, scope, req.customerIds.map(Number));
      return { usages: [...usage].map(([customerId, filesBytes]) => ({ customerId: BigInt(customerId), filesBytes })) };
    },
  };
}
