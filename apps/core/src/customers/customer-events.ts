// Facts about customers other services replicate (tenant directory) or act on
// (media creates the root file folder; every service deletes a deleted tenant's data).
import type { EventBus } from "@signage/events";

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
}

export function publishCustomerEvent(bus: EventBus, type: string, data: CustomerEventData) {
  return bus.publish({ type, customerId: data.id, data });
}
