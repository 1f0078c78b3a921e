// The customer's storage quota (`storageSize`, bytes): from the tenant replica
// (customer events carry it, so an upload asks nobody), else from core before
// the replica heard of the customer. Null means unlimited
// ("storageSize | long | bytes, null = unlimited"); 0 is a quota of no bytes at
// all. Used bytes are the sizes of the customer's files.
import type { HandlerContext } from "@connectrpc/connect";
import { storageSizeOf } from "../files/core-customer.js";
import { insufficientStorage } from "./upload-errors.js";
import type { UploadDeps } from "./upload-deps.js";

export interface Quota {
  limit: number | undefined;
  used: number;
}

export async function storageQuota(ctx: HandlerContext, deps: UploadDeps, customerId: number): Promise<Quota> {
  const [limit, [{ used }]] = await Promise.all([
    storageSizeOf(ctx, { ...deps.files, peers: deps.peers }, customerId),
    deps.files.knex("file").where({ customer_id: customerId }).sum({ used: "size" }),
  ]);
  return { limit: limit === null || Number.isNaN(limit) ? undefined : Math.max(0, limit), used: Number(used ?? 0) };
}

export function remainingBytes(quota: Quota): number {
  return quota.limit === undefined ? Number.POSITIVE_INFINITY : Math.max(0, quota.limit - quota.used);
}

/** 507 when `needed` more bytes would exceed the quota. */
export function assertFits(quota: Quota, needed: number): void {
  if (quota.limit !== undefined && quota.used + needed > quota.limit) throw insufficientStorage(quota.limit, quota.used, needed);
}
