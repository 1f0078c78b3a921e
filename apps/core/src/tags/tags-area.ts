// Tags and quick filters as one area of core: their two services and the two
// event consumers (tag index, quick filter usage index) with their lifecycle.
import type { ConnectRouter } from "@connectrpc/connect";
import type { Subscription } from "@signage/events";
import { TagService } from "@signage/contracts/signage/core/v1/tag_pb";
import { QuickFilterService } from "@signage/contracts/signage/core/v1/quick_filter_pb";
import type { CoreDeps } from "../deps.js";
import { tagService } from "./tag-service.js";
import { subscribeTagIndex } from "./tag-index-consumer.js";
import { FULL_TAG_VISIBILITY, type TagVisibilityResolver } from "./tag-visibility.js";
import { quickFilterService } from "../quick-filters/quick-filter-service.js";
import { subscribeQuickFilterUsage } from "../quick-filters/usage-consumer.js";
import type { ResourceTeams } from "../teams/resource-teams.js";

/**
 * TEAM VISIBILITY HOOK: until core's team access resolver (libs/auth
 * resolveTeamAccess over core's team tables) is wired here, every caller
 * counts every resource of its tenant scope.
 */
export const resolveTagVisibilityUnrestricted: TagVisibilityResolver = async () => FULL_TAG_VISIBILITY;

export function tagsArea(deps: CoreDeps, quickFilterTeams: ResourceTeams, visibility: TagVisibilityResolver = resolveTagVisibilityUnrestricted) {
  const subscriptions: Subscription[] = [];
  return {
    register(router: ConnectRouter) {
      router.service(TagService, tagService({ knex: deps.knex, visibility }));
      router.service(QuickFilterService, quickFilterService({ knex: deps.knex, newId: deps.newId, teams: quickFilterTeams }));
    },
    async start() {
      subscriptions.push(await subscribeTagIndex(deps.bus, deps.knex, deps.logger));
      subscriptions.push(await subscribeQuickFilterUsage(deps.bus, deps.knex, deps.logger));
    },
    async stop() {
      await Promise.all(subscriptions.splice(0).map((s) => s.stop()));
    },
  };
}
