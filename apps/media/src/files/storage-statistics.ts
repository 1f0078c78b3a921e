// Storage statistics (path picked: GET /api/v2/file/storageStatistics), bytes.
// Uploaded files are summed here; the available size is the customer's
// `storageSize` as core has it now, null when unlimited or unknown; data source
// resources are core's and count 0 until core reports them.
import type { HandlerContext } from "@connectrpc/connect";
import { requireAuth } from "@signage/auth";
import type { Peers } from "@signage/runtime";
import { customerStorageSize } from "./core-customer.js";
import { writeTenant } from "./caller.js";
import type { FileDeps } from "./file-deps.js";

export async function storageStatistics(ctx: HandlerContext, deps: FileDeps, peers: Peers | undefined) {
  const auth = requireAuth(ctx);
  const customerId = writeTenant(auth);
  const [{ used }] = await deps.knex("file").where({ customer_id: customerId }).sum({ used: "size" });
  const uploaded = BigInt(used ?? 0);
  const datasource = 0n;
  return {
    totalAvailableStorageSize: await availableStorage(ctx, deps, peers, customerId),
    totalUsedStorageSize: uploaded + datasource,
    usedDatasourceResourceStorageSize: datasource,
    usedUploadedFileStorageSize: uploaded,
  };
}

/** The customer's storageSize; undefined (rendered as null) when unlimited or core cannot tell: unknown is not zero. */
async function availableStorage(ctx: HandlerContext, deps: FileDeps, peers: Peers | undefined, customerId: number): Promise<bigint | undefined> {
  const size = await customerStorageSize(ctx, peers, deps.logger, customerId);
  return size === null ? undefined : BigInt(size);
}
