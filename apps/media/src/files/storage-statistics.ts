// Storage statistics (path picked: GET /api/v2/file/storageStatistics), bytes.
// Uploaded files count as the database totals them (storage_usage: one row, no
// sum over the files); the available size is the customer's `storageSize` as
// uploads see it (core-customer.ts), null when unlimited or unknown; data
// source resources are core's and count 0 until core reports them.
import type { HandlerContext } from "@connectrpc/connect";
import { requireAuth } from "@signage/auth";
import type { Peers } from "@signage/runtime";
import { storageSizeOf } from "./core-customer.js";
import { batchTenant } from "./caller.js";
import type { FileDeps } from "./file-deps.js";
import { usedBytes } from "../storage-usage/storage-usage-query.js";

export async function storageStatistics(ctx: HandlerContext, deps: FileDeps, peers: Peers | undefined) {
  const auth = requireAuth(ctx);
  // One customer's figures (its storageSize is per customer): an ADMIN or a network owner names it
  // with customerId (400 customer.error.customerIdRequired otherwise), never silently its own tenant's.
  const customerId = batchTenant(auth);
  const [size, used] = await Promise.all([storageSizeOf(ctx, { ...deps, peers }, customerId), usedBytes(deps.knex, customerId)]);
  const uploaded = BigInt(used);
  const datasource = 0n;
  return {
    // "storageSize ... null = unlimited": unknown is not zero either.
    totalAvailableStorageSize: size === null ? undefined : BigInt(size),
    totalUsedStorageSize: uploaded + datasource,
    usedDatasourceResourceStorageSize: datasource,
    usedUploadedFileStorageSize: uploaded,
  };
}
