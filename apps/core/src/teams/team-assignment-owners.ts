// Reaches the TeamAssignmentService of the service that owns a resource type:
// core's own implementation in process, any other over RPC on behalf of the
// caller (the owner authenticates and scopes the call itself).
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { createContextValues, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import { authContextKey, requireAuth, scopeIncludes, tenantScope } from "@signage/auth";
import {
  CountTeamResourcesRequestSchema,
  ListResourceTeamsRequestSchema,
  ListTeamResourcesRequestSchema,
  TeamAssignmentService,
  UpdateResourceTeamsRequestSchema,
  UpdateTeamResourcesRequestSchema,
  type CountTeamResourcesResponse,
  type ListResourceTeamsResponse,
  type ListTeamResourcesResponse,
} from "@signage/contracts/signage/teams/v1/team_assignments_pb";
import { onBehalfOf, type Peers, type ServiceName } from "@signage/runtime";

type Impl = ServiceImpl<typeof TeamAssignmentService>;

export interface AssignmentOwner {
  listTeamResources(req: MessageInitShape<typeof ListTeamResourcesRequestSchema>): Promise<ListTeamResourcesResponse>;
  listResourceTeams(req: MessageInitShape<typeof ListResourceTeamsRequestSchema>): Promise<ListResourceTeamsResponse>;
  updateTeamResources(req: MessageInitShape<typeof UpdateTeamResourcesRequestSchema>): Promise<unknown>;
  updateResourceTeams(req: MessageInitShape<typeof UpdateResourceTeamsRequestSchema>): Promise<unknown>;
  countTeamResources(req: MessageInitShape<typeof CountTeamResourcesRequestSchema>): Promise<CountTeamResourcesResponse>;
}

/**
 * The same call on behalf of the same caller, narrowed to one tenant of the caller's resolved
 * scope (what `customerId` does over RPC). A tenant outside that scope never widens it: the
 * call keeps the caller's scope, as the scoping table has other roles' selectors ignored.
 */
function inTenant(ctx: HandlerContext, customerId: bigint | undefined): HandlerContext {
  const auth = requireAuth(ctx);
  if (customerId === undefined || !scopeIncludes(auth.scope, Number(customerId))) return ctx;
  const values = createContextValues().set(authContextKey, { caller: auth.caller, scope: tenantScope(Number(customerId)) });
  return { ...ctx, values };
}

export function assignmentOwner(ctx: HandlerContext, service: ServiceName, local: Impl, peers: Peers): AssignmentOwner {
  if (service === "core") {
    const run = async <T>(call: () => T | Promise<T>): Promise<T> => call();
    return {
      listTeamResources: (r) => run(() => local.listTeamResources(create(ListTeamResourcesRequestSchema, r), inTenant(ctx, r.customerId))) as Promise<ListTeamResourcesResponse>,
      listResourceTeams: (r) => run(() => local.listResourceTeams(create(ListResourceTeamsRequestSchema, r), inTenant(ctx, r.customerId))) as Promise<ListResourceTeamsResponse>,
      updateTeamResources: (r) => run(() => local.updateTeamResources(create(UpdateTeamResourcesRequestSchema, r), inTenant(ctx, r.customerId))),
      updateResourceTeams: (r) => run(() => local.updateResourceTeams(create(UpdateResourceTeamsRequestSchema, r), inTenant(ctx, r.customerId))),
      countTeamResources: (r) => run(() => local.countTeamResources(create(CountTeamResourcesRequestSchema, r), inTenant(ctx, r.customerId))) as Promise<CountTeamResourcesResponse>,
    };
  }
  const client = peers.client(TeamAssignmentService, service);
  const options = onBehalfOf(ctx);
  return {
    listTeamResources: (r) => client.listTeamResources(r, options),
    listResourceTeams: (r) => client.listResourceTeams(r, options),
    updateTeamResources: (r) => client.updateTeamResources(r, options),
    updateResourceTeams: (r) => client.updateResourceTeams(r, options),
    countTeamResources: (r) => client.countTeamResources(r, options),
  };
}
