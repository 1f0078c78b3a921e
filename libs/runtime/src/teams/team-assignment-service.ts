// The common TeamAssignmentService contract over a service's own
// team_assignment table, for the resource types it owns. Core calls it (on
// behalf of the caller) for the team views; the service's own
// `/api/{resource}/updateTeamAssignments` RPCs call `updateResourceTeams`.
import { Code, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import type { Knex } from "knex";
import { requireAuth, resourceAccess, serviceError, singleTenant, type TeamAccess } from "@signage/auth";
import type { TeamAssignmentService } from "@signage/contracts/signage/teams/v1/team_assignments_pb";
import type { TeamAssignmentUpdate, TeamResourcesUpdate } from "@signage/contracts/signage/common/v1/teams_pb";
import { checkAssignmentUpdate, checkResourcesUpdate } from "./assignment-body.js";
import type { TeamAccessResolver } from "./team-access-resolver.js";
import type { TeamDirectory } from "./team-directory.js";
import { tableOf, type TeamResourceTable, type TeamResourceTables } from "./team-resource-tables.js";
import {
  assignmentsOfResource,
  assignmentsOfResources,
  countsOfTeams,
  findResourceInScope,
  findResourcesOfTenant,
  isUuid,
  resourcesOfTeam,
  writeAssignments,
  type AssignmentWrite,
} from "./team-assignment-store.js";

export interface TeamAssignmentDeps {
  knex: Knex;
  tables: TeamResourceTables;
  teams: TeamDirectory;
  access: TeamAccessResolver;
  /** In the write's transaction, after assignments of these resources changed (core: membership events). */
  onWritten?: (trx: Knex.Transaction, table: TeamResourceTable, resourceIds: readonly string[]) => Promise<void>;
  /** After the write committed (core: publish its outbox now). */
  afterCommit?: () => void;
}

async function write(deps: TeamAssignmentDeps, table: TeamResourceTable, customerId: number, upserts: AssignmentWrite[], deletes: { resourceId: string; teamId: string }[], notFound: (ids: string[]) => Error) {
  const ids = [...new Set([...upserts.map((u) => u.resourceId), ...deletes.map((d) => d.resourceId)])];
  await deps.knex.transaction(async (trx) => {
    // The resources again, now held until commit: one deleted since the caller's check (its delete
    // waited for nothing of ours) would keep the rows written below, listed by its team for good.
    const present = new Set((await findResourcesOfTenant(trx, table, ids, customerId, { lock: true })).map((id) => id.toLowerCase()));
    const gone = ids.filter((id) => !present.has(id.toLowerCase()));
    if (gone.length > 0) throw notFound(gone);
    await writeAssignments(trx, table, customerId, upserts, deletes);
    await deps.onWritten?.(trx, table, ids);
  });
  deps.afterCommit?.();
}

const resourceNotFound = (resourceType: string, id: string) =>
  serviceError(Code.NotFound, "team.error.resourceNotFound", `${resourceType} '${id}' not found`, { resourceType, id });

const resourcesNotFound = (resourceType: string, ids: string[]) =>
  serviceError(Code.NotFound, "team.error.resourceNotFound", `${resourceType} not found: ${ids.join(", ")}`, { resourceType, ids });

function readOnlyRefused(resourceType: string, id: string) {
  return serviceError(Code.PermissionDenied, "team.error.readOnly", `${resourceType} '${id}' is read-only for you through its team assignments`, { resourceType, id });
}

/**
 * 404 when the caller's teams do not see the resource, 403 when they see it read-only. `notFound`:
 * the service's own answer for a missing resource, so a hidden one cannot be told from it.
 */
export function requireWritable(
  access: TeamAccess,
  resourceType: string,
  id: string,
  assignments: Parameters<typeof resourceAccess>[1],
  notFound: (id: string) => Error = (missing) => resourceNotFound(resourceType, missing),
): void {
  const level = resourceAccess(access, assignments);
  if (level === "none") throw notFound(id);
  if (level === "read") throw readOnlyRefused(resourceType, id);
}

async function teamCustomer(ctx: HandlerContext, deps: TeamAssignmentDeps, teamId: string): Promise<number> {
  // A team-side call names one tenant: core resolved it from the team and passes customerId.
  const customerId = singleTenant(requireAuth(ctx).scope);
  await deps.teams.requireTeams(ctx, customerId, [teamId]);
  return customerId;
}

/** `POST /api/{resource}/updateTeamAssignments`: body assignToTeams / removeFromTeamIds. */
export async function updateResourceTeams(ctx: HandlerContext, deps: TeamAssignmentDeps, resourceType: string, resourceId: string, update: TeamAssignmentUpdate | undefined) {
  const table = tableOf(deps.tables, resourceType);
  checkAssignmentUpdate(update);
  const { scope } = requireAuth(ctx);
  const resource = await findResourceInScope(deps.knex, table, resourceId, scope);
  if (!resource) throw resourceNotFound(resourceType, resourceId);
  requireWritable(await deps.access(ctx), resourceType, resourceId, await assignmentsOfResource(deps.knex, resource.id));
  const assign = update?.assignToTeams ?? [];
  const remove = [...new Set(update?.removeFromTeamIds ?? [])].filter(isUuid);
  await deps.teams.requireTeams(ctx, resource.customerId, assign.map((a) => a.teamId));
  await write(
    deps,
    table,
    resource.customerId,
    assign.map((a) => ({ resourceId: resource.id, teamId: a.teamId, readOnly: a.readOnly })),
    remove.map((teamId) => ({ resourceId: resource.id, teamId })),
    () => resourceNotFound(resourceType, resourceId),
  );
  return {};
}

/** `PUT /api/team/update{ResourceType}Assignments`: resourcesToAdd / resourceIdsToRemove. */
export async function updateTeamResources(ctx: HandlerContext, deps: TeamAssignmentDeps, resourceType: string, teamId: string, update: TeamResourcesUpdate | undefined) {
  const table = tableOf(deps.tables, resourceType);
  checkResourcesUpdate(update);
  const customerId = await teamCustomer(ctx, deps, teamId);
  const add = update?.resourcesToAdd ?? [];
  const remove = [...new Set(update?.resourceIdsToRemove ?? [])];
  const named = [...new Set([...add.map((a) => a.id), ...remove])];
  const found = new Set(await findResourcesOfTenant(deps.knex, table, named, customerId));
  const missing = named.filter((id) => !found.has(id));
  if (missing.length > 0) throw resourcesNotFound(resourceType, missing);
  const access = await deps.access(ctx);
  const current = await assignmentsOfResources(deps.knex, named);
  for (const id of named) requireWritable(access, resourceType, id, current.get(id) ?? []);
  await write(
    deps,
    table,
    customerId,
    add.map((a) => ({ resourceId: a.id, teamId, readOnly: a.readOnly })),
    remove.map((resourceId) => ({ resourceId, teamId })),
    (gone) => resourcesNotFound(resourceType, gone),
  );
  return {};
}

export function teamAssignmentService(deps: TeamAssignmentDeps): ServiceImpl<typeof TeamAssignmentService> {
  return {
    async listTeamResources(req, ctx) {
      tableOf(deps.tables, req.resourceType);
      await teamCustomer(ctx, deps, req.teamId);
      const assignments = await resourcesOfTeam(deps.knex, req.resourceType, req.teamId);
      // Document 2 "User": "restricted = sees only team-assigned resources". A member sees every
      // resource of its team; anyone else only those its own teams (or no team) let it see.
      const access = await deps.access(ctx);
      if (access.kind === "full" || access.teamIds.includes(req.teamId)) return { assignments };
      const current = await assignmentsOfResources(deps.knex, assignments.map((a) => a.id));
      return { assignments: assignments.filter((a) => resourceAccess(access, current.get(a.id) ?? []) !== "none") };
    },
    async listResourceTeams(req, ctx) {
      const table = tableOf(deps.tables, req.resourceType);
      const resource = await findResourceInScope(deps.knex, table, req.resourceId, requireAuth(ctx).scope);
      if (!resource) throw resourceNotFound(req.resourceType, req.resourceId);
      const assignments = await assignmentsOfResource(deps.knex, resource.id);
      if (resourceAccess(await deps.access(ctx), assignments) === "none") throw resourceNotFound(req.resourceType, req.resourceId);
      return { assignments };
    },
    updateTeamResources: (req, ctx) => updateTeamResources(ctx, deps, req.resourceType, req.teamId, req.update),
    updateResourceTeams: (req, ctx) => updateResourceTeams(ctx, deps, req.resourceType, req.resourceId, req.update),
    async countTeamResources(req, ctx) {
      // Document 2 "User": "restricted = sees only team-assigned resources": counted as listed.
      const access = await deps.access(ctx);
      const counts = await countsOfTeams(deps.knex, singleTenant(requireAuth(ctx).scope), req.teamIds, access.kind === "full" ? undefined : access.teamIds);
      return { counts: counts.filter((c) => deps.tables.has(c.resourceType)).map((c) => ({ ...c, count: BigInt(c.count) })) };
    },
  };
}
