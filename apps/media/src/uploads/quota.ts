// The customer's storage quota (`storageSize`, bytes): from the tenant
// replica when customer events carry it, else asked from core on behalf of
// the caller. Unknown or null means unlimited ("storageSize | long | bytes,
// null = unlimited"); 0 is a quota of no bytes at all. Used bytes are the
// sizes of the customer's files.
import type { HandlerContext } from "@connectrpc/connect";
import { onBehalfOf, tenantStorageSize } from "@signage/runtime";
import { CustomerService } from "@signage/contracts/signage/core/v1/customer_pb";
import type { ListQuery } from "@signage/contracts/signage/common/v1/list_pb";
import { insufficientStorage } from "./upload-errors.js";
import type { UploadDeps } from "./upload-deps.js";

export interface Quota {
  limit: number | undefined;
  used: number;
}

async function storageSizeFromCore(ctx: HandlerContext, deps: UploadDeps, customerId: number): Promise<number | undefined> {
  if (!deps.peers) return undefined;
  try {
    const customers = deps.peers.client(CustomerService, "core");
    const res = await customers.listCustomers({ customerId: BigInt(customerId), query: { search: `id=${customerId}`, select: "id,storageSize", size: 1 } as ListQuery }, onBehalfOf(ctx));
    const size = (res.content[0] as { storageSize?: bigint } | undefined)?.storageSize;
    return size === undefined ? undefined : Number(size);
  } catch (err) {
    deps.files.logger.warn({ err, customerId }, "storageSize not available from core; upload not limited");
    return undefined;
  }
}

export async function storageQuota(ctx: HandlerContext, deps: UploadDeps, customerId: number): Promise<Quota> {
  const limit = (await tenantStorageSize(deps.files.knex, customerId)) ?? (await storageSizeFromCore(ctx, deps, customerId));
  const [{ used }] = await deps.files.knex("file").where({ customer_id: customerId }).sum({ used: "size" });
  return { limit: limit === undefined || limit === null || Number.isNaN(limit) ? undefined : Math.max(0, limit), used: Number(used ?? 0) };
}

export function remainingBytes(quota: Quota): number {
  return quota.limit === undefined ? Number.POSITIVE_INFINITY : Math.max(0, quota.limit - quota.used);
}

/** 507 when `needed` more bytes would exceed the quota. */
export function assertFits(quota: Quota, needed: number): void {
  if (quota.limit !== undefined && quota.used + needed > quota.limit) throw insufficientStorage(quota.limit, quota.used, needed);
}
