import type { HandlerContext } from "@connectrpc/connect";
import type { Knex } from "knex";
import { requireAuth, type TeamAccess } from "@signage/auth";
import { listRpc } from "@signage/runtime";
import { UserSchema } from "@signage/contracts/signage/core/v1/user_pb";
import type { ListQuery } from "@signage/contracts/signage/common/v1/list_pb";
import { userResource } from "./user-resource.js";

export async function listUsers(ctx: HandlerContext, knex: Knex, query: ListQuery | undefined, teams?: TeamAccess) {
  const page = await listRpc(ctx, { knex, resource: userResource, message: UserSchema, query, scope: requireAuth(ctx).scope, teams });
  await applyCustomerForce2fa(knex, page.content);
  return page;
}

/**
 * forceToSet2FA as user-mapper.ts renders it for one user: also true for a user without 2FA
 * whose customer has "force2FA | boolean | mandatory 2FA for all users". Only rows that carry
 * the field (selected) and hold false are looked up, in one statement per page.
 */
async function applyCustomerForce2fa(knex: Knex, users: { id?: string; forceToSet2fa?: boolean }[]): Promise<void> {
  const candidates = users.filter((u) => u.forceToSet2fa === false && u.id);
  if (candidates.length === 0) return;
  const forced = new Set<string>(
    await knex("app_user as u")
      .join("customer as c", "c.id", "u.customer_id")
      .whereRaw("u.id = any(?::uuid[])", [candidates.map((u) => u.id!)])
      .where("c.force_2fa", true)
      .where("u.use_2fa", false)
      .pluck("u.id"),
  );
  for (const u of candidates) if (forced.has(u.id!)) u.forceToSet2fa = true;
}
