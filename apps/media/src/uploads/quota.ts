// The customer's storage quota (`storageSize`, bytes): from the tenant replica
// (customer events carry it, so an upload asks nobody), else from core before
// the replica heard of the customer. Null means unlimited
// ("storageSize | long | bytes, null = unlimited"); 0 is a quota of no bytes at
// all. Used bytes are the sizes of the customer's files, as the database keeps
// their total (storage_usage, migration 20261126000000): one row by primary key,
// not a sum over every file.
// The check before the bytes stream (assertFits, remainingBytes) refuses early;
// assertFitsAtCommit decides at the end of the transaction that inserts the
// rows, where concurrent uploads of the customer take their turn on the total's
// row, so together they never go past the quota.
import type { HandlerContext } from "@connectrpc/connect";
import type { Knex } from "knex";
import { usedBytes } from "../storage-usage/storage-usage-query.js";
import { storageSizeOf } from "../files/core-customer.js";
import { insufficientStorage } from "./upload-errors.js";
import type { UploadDeps } from "./upload-deps.js";

export interface Quota {
  limit: number | undefined;
  used: number;
}

export async function storageQuota(ctx: HandlerContext, deps: UploadDeps, customerId: number): Promise<Quota> {
  const [limit, used] = await Promise.all([storageSizeOf(ctx, { ...deps.files, peers: deps.peers }, customerId), usedBytes(deps.files.knex, customerId)]);
  return { limit: limit === null || Number.isNaN(limit) ? undefined : Math.max(0, limit), used };
}

export function remainingBytes(quota: Quota): number {
  return quota.limit === undefined ? Number.POSITIVE_INFINITY : Math.max(0, quota.limit - quota.used);
}

/** 507 when `needed` more bytes would exceed the quota. */
export function assertFits(quota: Quota, needed: number): void {
  if (quota.limit !== undefined && quota.used + needed > quota.limit) throw insufficientStorage(quota.limit, quota.used, needed);
}

/**
 * The last step of the transaction that inserted the upload's `added` bytes: 507, rolling the
 * rows back, when the customer's total with them exceeds the quota. Locks the total's row
 * until commit (where this transaction's changes are folded into it), so a concurrent upload
 * of the customer checks after this one committed or rolled back, and sees its bytes.
 */
export async function assertFitsAtCommit(trx: Knex.Transaction, quota: Quota, customerId: number, added: number): Promise<void> {
  if (quota.limit === undefined) return;
  await trx.raw("INSERT INTO storage_usage (customer_id) VALUES (?) ON CONFLICT (customer_id) DO NOTHING", [customerId]);
  // The committed total plus this transaction's own changes (other transactions' are not visible, and folded by their commit).
  const { rows } = await trx.raw(
    `SELECT u.files_bytes + coalesce((SELECT sum(d.bytes) FROM storage_usage_delta d WHERE d.customer_id = u.customer_id), 0) AS total
       FROM storage_usage u WHERE u.customer_id = ? FOR UPDATE OF u`,
    [customerId],
  );
  const total = Number(rows[0].total);
  if (total > quota.limit) throw insufficientStorage(quota.limit, total - added, added);
}
