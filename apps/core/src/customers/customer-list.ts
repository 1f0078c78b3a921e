import type { HandlerContext } from "@connectrpc/connect";
import type { Knex } from "knex";
import { requireAuth } from "@signage/auth";
import { listRpc } from "@signage/runtime";
import { CustomerSchema } from "@signage/contracts/signage/core/v1/customer_pb";
import type { ListQuery } from "@signage/contracts/signage/common/v1/list_pb";
import { customerResource } from "./customer-resource.js";

export function listCustomers(ctx: HandlerContext, knex: Knex, query: ListQuery | undefined) {
  return listRpc(ctx, { knex, resource: customerResource, message: CustomerSchema, query, scope: requireAuth(ctx).scope });
}
