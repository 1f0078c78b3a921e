import type { HandlerContext } from "@connectrpc/connect";
import type { Knex } from "knex";
import { requireAuth, type TeamAccess } from "@signage/auth";
import { listRpc } from "@signage/runtime";
import { UserSchema } from "@signage/contracts/signage/core/v1/user_pb";
import type { ListQuery } from "@signage/contracts/signage/common/v1/list_pb";
import { userResource } from "./user-resource.js";

export function listUsers(ctx: HandlerContext, knex: Knex, query: ListQuery | undefined, teams?: TeamAccess) {
  return listRpc(ctx, { knex, resource: userResource, message: UserSchema, query, scope: requireAuth(ctx).scope, teams });
}
