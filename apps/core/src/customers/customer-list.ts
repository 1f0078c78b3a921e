import type { HandlerContext } from "@connectrpc/connect";
import type { Knex } from "knex";
import { requireAuth } from "@signage/auth";
import { listRpc } from "@signage/runtime";
import { CustomerSchema } from "@signage/contracts/signage/core/v1/customer_pb";
import type { ListQuery } from "@signage/contracts/signage/common/v1/list_pb";
import { customerResource } from "./customer-resource.js";
import { fillStorageUsage, selectedStorageFields, type StorageUsageDeps } from "./customer-storage.js";

/** The page from core's table, then the selected storage fields of the whole page in one media call. */
export async function listCustomers(ctx: HandlerContext, knex: Knex, query: ListQuery | undefined, storage: StorageUsageDeps) {
  const page = await listRpc(ctx, { knex, resource: customerResource, message: CustomerSchema, query, scope: requireAuth(ctx).scope });
  await fillStorageUsage(ctx, storage, page.content, selectedStorageFields(query?.select));
  return page;
}
