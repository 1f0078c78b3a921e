// The computed Customer fields currentCustomerFilesStorageSize,
// currentDatasourceStorageSize and currentTotalCustomerStorageSize (document 2
// "Customer": "computed"). File bytes live in media: one StorageUsageService
// call per page (never one per row), on behalf of the caller so media applies
// the caller's scope.
import type { HandlerContext } from "@connectrpc/connect";
import { onBehalfOf, type Peers } from "@signage/runtime";
import type { Customer } from "@signage/contracts/signage/core/v1/customer_pb";
import { StorageUsageService } from "@signage/contracts/signage/media/v1/storage_usage_pb";
import type { CoreLogger } from "../deps.js";

export const STORAGE_FIELDS = ["currentTotalCustomerStorageSize", "currentDatasourceStorageSize", "currentCustomerFilesStorageSize"] as const;

export type StorageField = (typeof STORAGE_FIELDS)[number];

/** Top-level names of a `select` (nested `relation(a,b)` parts are skipped). */
function topLevelNames(select: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of select) {
    if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else if (ch === "," && depth === 0) {
      names.push(current.trim());
      current = "";
    } else if (depth === 0) current += ch;
  }
  names.push(current.trim());
  return names;
}

/**
 * The storage fields a `select` names. "computed and select-only fields must be
 * named explicitly": a list asks media only when one of them is named.
 */
export function selectedStorageFields(select: string | undefined): Set<StorageField> {
  const names = new Set(select ? topLevelNames(select) : []);
  return new Set(STORAGE_FIELDS.filter((name) => names.has(name)));
}

export interface StorageUsageDeps {
  peers?: Peers;
  logger: CoreLogger;
}

/**
 * Fills the three fields of every customer with ONE media call. When media is
 * not reachable (a composition without media, media down) the fields stay
 * absent and a warning is logged: the customer read itself does not fail.
 * `fields` limits what is set (a list renders only the selected fields).
 */
export async function fillStorageUsage(
  ctx: HandlerContext,
  deps: StorageUsageDeps,
  customers: Customer[],
  fields: ReadonlySet<StorageField> = new Set(STORAGE_FIELDS),
): Promise<void> {
  if (customers.length === 0 || fields.size === 0) return;
  let filesBytes: Map<bigint, bigint>;
  try {
    if (!deps.peers) throw new Error("no peers in this composition");
    const media = deps.peers.client(StorageUsageService, "media");
    const res = await media.getStorageUsage({ customerIds: customers.map((c) => c.id) }, onBehalfOf(ctx));
    filesBytes = new Map(res.usages.map((u) => [u.customerId, u.filesBytes]));
  } catch (err) {
    deps.logger.warn({ err, customerIds: customers.map((c) => String(c.id)) }, "customer storage usage not available from media; storage fields left absent");
    return;
  }
  for (const customer of customers) {
    const files = filesBytes.get(customer.id);
    if (files === undefined) continue; // outside the caller's scope in media
    // Data sources do not exist yet (no data source service): their storage is 0 until they do.
    const datasource = 0n;
    if (fields.has("currentCustomerFilesStorageSize")) customer.currentCustomerFilesStorageSize = files;
    if (fields.has("currentDatasourceStorageSize")) customer.currentDatasourceStorageSize = datasource;
    if (fields.has("currentTotalCustomerStorageSize")) customer.currentTotalCustomerStorageSize = files + datasource;
  }
}
