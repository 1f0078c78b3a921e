// The team side of one of core's team-enabled resource tables, as the
// resource's own service needs it: visibility for lists, `teamIds` on create,
// the read-only / hidden refusal on writes, and cleanup on delete.
import type { HandlerContext } from "@connectrpc/connect";
import type { Knex } from "knex";
import type { ResourceTeamAssignment, TeamAccess } from "@signage/auth";
import {
  assignOnCreate,
  assignmentsOfResource,
  deleteResourceAssignments,
  parseTeamIdsParam,
  requireCreatorCanWrite,
  requireWritable,
  type TeamAccessResolver,
  type TeamDirectory,
  type TeamResourceTable,
} from "@signage/runtime";

export interface ResourceTeams {
  access(ctx: HandlerContext): Promise<TeamAccess>;
  /** `teamIds=id:readOnly,...` parsed and checked against the tenant's teams, and against the caller's (it must be able to write what it creates), before the insert. */
  parseCreate(ctx: HandlerContext, customerId: number, teamIds: string | undefined): Promise<ResourceTeamAssignment[]>;
  /** In the create transaction, after the row is inserted. */
  assignCreated(trx: Knex.Transaction, resourceId: string, customerId: number, teams: ResourceTeamAssignment[]): Promise<void>;
  /** 404 when the caller's teams hide the resource, 403 when they see it read-only. */
  assertWritable(ctx: HandlerContext, db: Knex | Knex.Transaction, resourceId: string): Promise<void>;
  /** In the delete transaction. */
  removeAll(trx: Knex.Transaction, resourceIds: readonly string[]): Promise<void>;
}

export function resourceTeams(table: TeamResourceTable, access: TeamAccessResolver, directory: TeamDirectory): ResourceTeams {
  return {
    access,
    async parseCreate(ctx, customerId, teamIds) {
      const teams = parseTeamIdsParam(teamIds);
      if (teams.length > 0) await directory.requireTeams(ctx, customerId, teams.map((t) => t.teamId));
      requireCreatorCanWrite(await access(ctx), teams);
      return teams;
    },
    async assignCreated(trx, resourceId, customerId, teams) {
      if (teams.length > 0) await assignOnCreate(trx, table, { resourceId, customerId, teams });
    },
    async assertWritable(ctx, db, resourceId) {
      requireWritable(await access(ctx), table.resourceType, resourceId, await assignmentsOfResource(db, resourceId));
    },
    removeAll: (trx, resourceIds) => deleteResourceAssignments(trx, resourceIds),
  };
}
