// What media needs to know of a customer beyond its tenant replica, asked from core on behalf
// of the caller: its storageSize (bytes; null = unlimited, "storageSize | long | bytes, null =
// unlimited") and whether it exists at all. Core knows every customer, so none found is a
// customer that does not exist (an ADMIN's mistyped customerId): 404 before anything is read or
// stored for it. Core unreachable: null (unknown is not zero).
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { Knex } from "knex";
import type { Logger } from "@signage/platform";
import { serviceError } from "@signage/auth";
import { createReplicaTenantDirectory, onBehalfOf, tenantStorageQuota, type Peers } from "@signage/runtime";
import { CustomerService } from "@signage/contracts/signage/core/v1/customer_pb";
import type { ListQuery } from "@signage/contracts/signage/common/v1/list_pb";

const UNREACHABLE = new Set([Code.Unavailable, Code.DeadlineExceeded, Code.Unknown, Code.Unimplemented]);

/** Core's answer for one customer: none (it does not exist), its storageSize, or undefined when core is out of reach. */
type CoreCustomer = { found: false } | { found: true; storageSize: number | null } | undefined;

async function askCore(ctx: HandlerContext, peers: Peers | undefined, logger: Logger, customerId: number): Promise<CoreCustomer> {
  if (!peers) return undefined;
  let content: unknown[];
  try {
    const customers = peers.client(CustomerService, "core");
    const query = { search: `id=${customerId}`, select: "id,storageSize", size: 1 } as ListQuery;
    content = (await customers.listCustomers({ customerId: BigInt(customerId), query }, onBehalfOf(ctx))).content;
  } catch (err) {
    // Only core being out of reach is "unknown"; a refusal is the caller's answer.
    if (!UNREACHABLE.has(ConnectError.from(err).code)) throw err;
    logger.warn({ err, customerId }, "customer not available from core");
    return undefined;
  }
  if (content.length === 0) return { found: false };
  const size = (content[0] as { storageSize?: bigint }).storageSize;
  return { found: true, storageSize: size === undefined ? null : Number(size) };
}

async function customerStorageSize(ctx: HandlerContext, peers: Peers | undefined, logger: Logger, customerId: number): Promise<number | null> {
  const answer = await askCore(ctx, peers, logger, customerId);
  // Core unreachable: treated as unlimited (unknown is not zero).
  if (!answer) return null;
  if (!answer.found) throw serviceError(Code.NotFound, "customer.error.notFound", `Customer ${customerId} not found`, { id: customerId });
  return answer.storageSize;
}

/** The storageSize uploads and statistics go by: the tenant replica's (customer events carry it), else core's. */
export async function storageSizeOf(ctx: HandlerContext, deps: { knex: Knex; peers?: Peers; logger: Logger }, customerId: number): Promise<number | null> {
  const replica = await tenantStorageQuota(deps.knex, customerId);
  return replica ? replica.storageSize : customerStorageSize(ctx, deps.peers, deps.logger, customerId);
}

/** 404 unless the customer exists: media's tenant replica knows it, or else core does. */
export async function requireKnownCustomer(ctx: HandlerContext, deps: { knex: Knex; peers?: Peers; logger: Logger }, customerId: number): Promise<void> {
  const known = await createReplicaTenantDirectory(deps.knex).access(customerId);
  if (!known || known.deleted) await customerStorageSize(ctx, deps.peers, deps.logger, customerId);
}

/** Whether the customer exists and is not deleted, by media's tenant replica or else by core; false when neither can tell. */
export async function customerKnown(ctx: HandlerContext, deps: { knex: Knex; peers?: Peers; logger: Logger }, customerId: number): Promise<boolean> {
  const replica = await createReplicaTenantDirectory(deps.knex).access(customerId);
  if (replica) return !replica.deleted;
  return (await askCore(ctx, deps.peers, deps.logger, customerId))?.found === true;
}
