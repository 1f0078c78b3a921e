// "Create filtered folder ... quickFilterId (req)": the folder shows what the quick
// filter selects, so it must name a FILE quick filter of the folder's own tenant.
// Anything else is refused as in a list, through the same resolver the file list
// uses: 400 quickFilter.error.notFound, or entityTypeMismatch for the tenant's own
// filter of another type.
import type { HandlerContext } from "@connectrpc/connect";
import { unknownQuickFilter } from "@signage/runtime";
import type { FileDeps } from "../files/file-deps.js";

export async function requireFileQuickFilter(ctx: HandlerContext, deps: Pick<FileDeps, "quickFilters">, quickFilterId: string, customerId: number): Promise<void> {
  // Without a resolver no quick filter can be known (as listRpc answers for such a list).
  if (!deps.quickFilters) throw unknownQuickFilter(quickFilterId);
  await deps.quickFilters.resolve(ctx, quickFilterId, { customerId });
}
