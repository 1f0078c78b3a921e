// How a list RPC turns `quickFilterId` into filter language text: core owns
// quick filters and compiles them (CompileQuickFilter), on behalf of the
// caller so core checks the caller's tenant scope itself.
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";
import { FilteredEntityType, QuickFilterService } from "@signage/contracts/signage/core/v1/quick_filter_pb";
import { onBehalfOf, type Peers } from "../peers/peers.js";
import type { FilteredEntityTypeName } from "./entity-types.js";

export interface QuickFilterResolver {
  /** The quick filter's expression (empty: no condition); 400 `quickFilter.error.notFound` when unknown. */
  resolve(ctx: HandlerContext, quickFilterId: string): Promise<string>;
}

/** Resolver asking core over RPC; `entityType` is the entity the list shows. */
export function coreQuickFilters(peers: Peers, entityType: FilteredEntityTypeName): QuickFilterResolver {
  return {
    async resolve(ctx, quickFilterId) {
      const client = peers.client(QuickFilterService, "core");
      try {
        const res = await client.compileQuickFilter(
          { quickFilterId, expectedEntityType: FilteredEntityType[entityType] },
          onBehalfOf(ctx),
        );
        return res.search;
      } catch (e) {
        const err = ConnectError.from(e);
        // In a list, an unknown id is a bad parameter (400), not a missing resource.
        if (err.code === Code.NotFound) {
          throw serviceError(Code.InvalidArgument, "quickFilter.error.notFound", `Unknown quickFilterId '${quickFilterId}'`, { quickFilterId });
        }
        throw err;
      }
    },
  };
}
