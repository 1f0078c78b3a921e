// Facts about customers other services replicate (tenant directory) or act on
// (media creates the root file folder; every service deletes a deleted tenant's data).
import type { Knex } from "knex";
import type { TenantAccessChanges } from "@signage/auth";
import type { Outbox } from "@signage/events";

export const CustomerEvent = {
  created: "customer.created",
  updated: "customer.updated",
  deleted: "customer.deleted",
} as const;

export interface CustomerEventData {
  id: number;
  name: string;
  ownerSubresellerId: number | null;
  networkOwner: boolean;
  restricted: boolean;
  /** Unix ms or null: every service refuses the customer's callers from then on. */
  expirationDate: number | null;
  /** Bytes, null = unlimited: media checks uploads against its replica, without asking core. */
  storageSize: number | null;
}

/**
 * In the transaction of the change: the event is published once it commits, never if it
 * rolls back. Every change to a customer's access facts comes through here, so this is
 * also where the cached access check hears of it, right after the commit.
 */
export function enqueueCustomerEvent(outbox: Outbox, changes: TenantAccessChanges, trx: Knex.Transaction, type: string, data: CustomerEventData) {
  trx.executionPromise.then(
    () => changes.changed(data.id),
    () => undefined,
  );
  return outbox.enqueue(trx, { type, customerId: data.id, data });
}

/** The replicated facts of a customer row (`customer` table columns). */
export function customerEventData(c: {
  id: number | string;
  name: string;
  owner_subreseller_id: number | string | null;
  subreseller_since: Date | null;
  restricted: boolean;
  expiration_date: Date | null;
  storage_size: number | string | null;
}): CustomerEventData {
  return {
    id: Number(c.id),
    name: c.name,
    ownerSubresellerId: c.owner_subreseller_id === null ? null : Number(c.owner_subreseller_id),
    networkOwner: c.subreseller_since !== null,
    restricted: c.restricted,
    expirationDate: c.expiration_date ? c.expiration_date.getTime() : null,
    storageSize: c.storage_size === null ? null : Number(c.storage_size),
  };
}
