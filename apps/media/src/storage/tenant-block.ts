import { Code } from "@connectrpc/connect";
import type { Knex } from "knex";
import { serviceError } from "@signage/auth";

// "restricted: true disables all access" (document 2, "Customer"), and a deleted customer's
// bytes are not readable once media applied the delete: a signed URL carries no token, so the
// auth interceptor never sees these calls; the customer is read from the key (blob-keys.ts,
// custom-apps/package-keys.ts) or the upload session and checked against the tenant replica.
const TENANT_OF_KEY = /^(?:files|thumbnails|custom-apps)\/(\d+)\//;

export function customerOfBlobKey(key: string): number | undefined {
  const m = TENANT_OF_KEY.exec(key);
  return m ? Number(m[1]) : undefined;
}

/** Refuses a presigned call for a restricted customer (403) or a deleted one (`gone`, 404). */
export async function refuseBlockedTenant(knex: Knex, customerId: number | undefined, gone: () => Error): Promise<void> {
  if (customerId === undefined) return;
  const row: { restricted: boolean; deleted: boolean } | undefined = await knex("tenant").where({ customer_id: customerId }).first("restricted", "deleted");
  if (row?.deleted) throw gone();
  if (row?.restricted) {
    throw serviceError(Code.PermissionDenied, "auth.error.customerRestricted", "The file's customer is restricted: all access is blocked", { customerId });
  }
}
