// How a list RPC turns `quickFilterId` into filter language text: core owns
// quick filters and compiles them (CompileQuickFilter), on behalf of the
// caller so core checks the caller's tenant scope itself.
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";
import { FilteredEntityType, QuickFilterService } from "@signage/contracts/signage/core/v1/quick_filter_pb";
import { onBehalfOf, type Peers } from "../peers/peers.js";
import type { FilteredEntityTypeName } from "./entity-types.js";

export interface QuickFilterUse {
  /**
   * A resource of that tenant keeps the id (e.g. a filtered folder being created): a filter of
   * another tenant or of another entity type is unknown as well (same 400), even for a caller
   * whose own scope spans tenants (ADMIN, network owner).
   */
  customerId?: number;
  /** The filtered folder (one the caller may see) whose own filter this is: applied even if the caller's teams hide the filter itself. */
  filteredFolderId?: string;
}

export interface QuickFilterResolver {
  /** The quick filter's expression (empty: no condition); 400 `quickFilter.error.notFound` when unknown or hidden from the caller. */
  resolve(ctx: HandlerContext, quickFilterId: string, use?: QuickFilterUse): Promise<string>;
}

/** 400 `quickFilter.error.notFound`: in a list, an unknown id is a bad parameter, not a missing resource. */
export function unknownQuickFilter(quickFilterId: string, details: Record<string, string> = {}) {
  return serviceError(Code.InvalidArgument, "quickFilter.error.notFound", `Unknown quickFilterId '${quickFilterId}'`, { quickFilterId, ...details });
}

/** The same 400 where nothing could use a quick filter (a list of a resource quick filters do not select). */
export function quickFilterNotApplied(quickFilterId: string) {
  return serviceError(Code.InvalidArgument, "quickFilter.error.notFound", `This list applies no quick filter: quickFilterId '${quickFilterId}' cannot be used here`, { quickFilterId });
}

/** Resolver asking core over RPC; `entityType` is the entity the list shows. */
export function coreQuickFilters(peers: Peers, entityType: FilteredEntityTypeName): QuickFilterResolver {
  const unknown = unknownQuickFilter;
  const mapped = (quickFilterId: string, e: unknown) => {
    const err = ConnectError.from(e);
    return err.code === Code.NotFound ? unknown(quickFilterId) : err;
  };
  return {
    async resolve(ctx, quickFilterId, { customerId, filteredFolderId } = {}) {
      const client = peers.client(QuickFilterService, "core");
      const compiled = client.compileQuickFilter({ quickFilterId, expectedEntityType: FilteredEntityType[entityType], filteredFolderId }, onBehalfOf(ctx)).then(
        (res) => res.search,
        (e: unknown) => {
          throw mapped(quickFilterId, e);
        },
      );
      if (customerId === undefined) return compiled;
      // Core compiles within the caller's own scope, so the filter's tenant and type are read alongside.
      const [read, search] = await Promise.allSettled([client.getQuickFilter({ id: quickFilterId }, onBehalfOf(ctx)), compiled]);
      if (read.status === "rejected") throw mapped(quickFilterId, read.reason);
      const filter = read.value.quickFilter;
      if (filter?.customerId === undefined || Number(filter.customerId) !== customerId) throw unknown(quickFilterId);
      if (filter.filteredEntityType !== FilteredEntityType[entityType]) {
        // The caller's own filter of another type: the answer a list gives for it (core's compile).
        const type = FilteredEntityType[filter.filteredEntityType ?? 0];
        throw serviceError(Code.InvalidArgument, "quickFilter.error.entityTypeMismatch", `Quick filter '${quickFilterId}' filters ${type}, not ${entityType}`, { quickFilterId, filteredEntityType: type, expected: entityType });
      }
      if (search.status === "rejected") throw search.reason;
      return search.value;
    },
  };
}
