// "Root folder: auto-created per customer", from `customer.created` "and lazily if missing": a
// folder list of one tenant whose root is not there yet (the event not consumed yet, e.g. a list
// sent right after the customer's create) creates it first, so the list shows it. Only for a
// customer that exists (the caller's own, or known to media's replica or to core) and is not
// deleted (the purge's lock, root-folder.ts). A root once seen is remembered: roots go only with
// their tenant, and a purged tenant's list is empty either way.
import type { HandlerContext } from "@connectrpc/connect";
import type { Knex } from "knex";
import type { AuthContext } from "@signage/auth";
import type { IdGenerator } from "@signage/db";
import type { Logger } from "@signage/platform";
import type { Peers } from "@signage/runtime";
import { customerKnown } from "../files/core-customer.js";
import { ensureRootFolder, tenantDeletedUnderLock } from "./root-folder.js";
import { createBoundedSet } from "./bounded-set.js";

export interface ListedRoots {
  /** Before a folder list: when it covers exactly one tenant, that tenant's root exists. */
  ensureFor(ctx: HandlerContext, auth: AuthContext): Promise<void>;
}

export interface ListedRootsDeps {
  knex: Knex;
  newId: IdGenerator;
  logger: Logger;
  peers?: Peers;
}

export function createListedRoots(deps: ListedRootsDeps, maxEntries = 50_000): ListedRoots {
  const withRoot = createBoundedSet<number>(maxEntries);

  async function create(customerId: number): Promise<boolean> {
    return deps.knex.transaction(async (trx) => {
      if (await tenantDeletedUnderLock(trx, customerId)) return false;
      await ensureRootFolder(trx, customerId, deps.newId);
      return true;
    });
  }

  return {
    async ensureFor(ctx, auth) {
      if (auth.scope.kind !== "tenants" || auth.scope.customerIds.length !== 1) return;
      const customerId = auth.scope.customerIds[0];
      if (withRoot.has(customerId)) return;
      const root = await deps.knex("file_folder").where({ customer_id: customerId }).whereNull("parent_id").first("id");
      if (!root) {
        const known = customerId === auth.caller.customerId || (await customerKnown(ctx, deps, customerId));
        if (!known || !(await create(customerId))) return;
      }
      withRoot.add(customerId);
    },
  };
}
