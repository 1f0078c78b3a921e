// Storage statistics (path picked: GET /api/v2/file/storageStatistics), bytes.
// Uploaded files are summed here; the available size is the customer's
// `storageSize` (core), null when unlimited or unknown; data source
// resources are core's and count 0 until core reports them.
import type { HandlerContext } from "@connectrpc/connect";
import { requireAuth } from "@signage/auth";
import { onBehalfOf, type Peers } from "@signage/runtime";
import { CustomerService } from "@signage/contracts/signage/core/v1/customer_pb";
import type { ListQuery } from "@signage/contracts/signage/common/v1/list_pb";
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

/**
 * The customer's storageSize from core. undefined (rendered as null) when the storage is
 * unlimited ("storageSize ... null = unlimited") or core cannot tell: unknown is not zero.
 */
async function availableStorage(ctx: HandlerContext, deps: FileDeps, peers: Peers | undefined, customerId: number): Promise<bigint | undefined> {
  if (!peers) return undefined;
  try {
    const customers = peers.client(CustomerService, "core");
    const res = await customers.listCustomers({ customerId: BigInt(customerId), query: { search: `id=${customerId}`, select: "id,storageSize", size: 1 } as ListQuery }, onBehalfOf(ctx));
    const storage = (res.content[0] as { storageSize?: bigint } | undefined)?.storageSize;
    return storage === undefined ? undefined : BigInt(storage);
  } catch (error) {
    deps.logger.warn({ err: error, customerId }, "storage size of the customer not available from core");
    return undefined;
  }
}
