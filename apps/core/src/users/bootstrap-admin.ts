// The super admin from ADMIN_EMAIL / ADMIN_PASSWORD, in the platform's own
// customer, created only while the platform has no ADMIN at all: a bootstrap,
// not a standing account. Once admins manage themselves, deleting that
// account must not bring it back at the next start with a password from the
// environment (often the documented default). Idempotent and safe when
// replicas start together; an existing admin keeps its password.
import type { Knex } from "knex";
import type { IdGenerator } from "@signage/db";
import { hashPassword } from "./passwords.js";
import { createCustomerRoots } from "../folders/customer-roots.js";

export const PLATFORM_CUSTOMER_NAME = "Platform";

/**
 * `announceCreated` enqueues `customer.created` for the platform customer in the same transaction:
 * "Creating a customer auto-creates a root deviceGroup, root fileFolder and a content folder named
 * Templates", and the root file folder is media's, made from that event as for any customer.
 */
export async function bootstrapAdmin(
  knex: Knex,
  newId: IdGenerator,
  email: string,
  password: string,
  announceCreated: (trx: Knex.Transaction, customer: Record<string, unknown>) => Promise<unknown>,
): Promise<{ created: boolean }> {
  return knex.transaction(async (trx) => {
    await trx.raw("SELECT pg_advisory_xact_lock(hashtext('core.bootstrap-admin'))");
    let platform = await trx("customer").where({ platform: true }).first();
    if (!platform) {
      [platform] = await trx("customer").insert({ name: PLATFORM_CUSTOMER_NAME, platform: true, license_tier: "ENTERPRISE" }).returning("*");
      await createCustomerRoots(trx, Number(platform.id), newId);
      await announceCreated(trx, platform);
    }
    const anyAdmin = await trx("app_user").where({ role: "ADMIN" }).first("id");
    if (anyAdmin) return { created: false };
    // An account of that email in another role keeps it: promoting users is an ADMIN's call.
    const existing = await trx("app_user").whereRaw("lower(email) = lower(?)", [email]).first("id");
    if (existing) return { created: false };
    await trx("app_user").insert({
      id: newId(),
      email,
      name: "Administrator",
      role: "ADMIN",
      customer_id: platform.id,
      password_hash: await hashPassword(password),
    });
    return { created: true };
  });
}
