// Core's team pieces wired together: TeamService (REST), core's own
// TeamAssignmentService (users; more core types as they arrive), the caller's
// team access (for core lists) and user memberships. Team facts leave through
// the module's outbox.
import type { ConnectRouter, HandlerContext } from "@connectrpc/connect";
import type { Knex } from "knex";
import type { AuthContext, ResourceTeamAssignment, TeamAccess } from "@signage/auth";
import type { Outbox } from "@signage/events";
import type { IdGenerator } from "@signage/db";
import { TeamService } from "@signage/contracts/signage/core/v1/team_pb";
import { TeamAssignmentService } from "@signage/contracts/signage/teams/v1/team_assignments_pb";
import type { TeamAssignmentUpdate } from "@signage/contracts/signage/common/v1/teams_pb";
import {
  assignOnCreate,
  createTeamAccessResolver,
  teamAccessForCaller,
  localTeamDirectory,
  teamAssignmentService,
  teamResourceTables,
  updateResourceTeams,
  type Peers,
  type TeamAccessResolver,
  type TeamAssignmentDeps,
  type TeamResourceTable,
} from "@signage/runtime";
import type { CoreLogger } from "../deps.js";
import { coreTeamFacts } from "./core-team-facts.js";
import { teamFactWriter } from "./team-outbox.js";
import { resourceTeams, type ResourceTeams } from "./resource-teams.js";
import { teamService } from "./team-service.js";
import { publishMembershipsOf, USER_TEAM_TABLE } from "./user-teams.js";

const QUICK_FILTER_TEAM_TABLE: TeamResourceTable = { resourceType: "quickFilter", table: "quick_filter" };

export interface CoreTeams {
  register(router: ConnectRouter): void;
  /** The caller's team access, for core's team-enabled lists (`listRpc({ teams })`). */
  access: TeamAccessResolver;
  /** The same for code that holds only the AuthContext (tag counts). */
  accessOfAuth(auth: AuthContext): Promise<TeamAccess>;
  /** `POST /api/user/updateTeamAssignments?email=`: the user already found in the caller's scope. */
  updateUserTeams(ctx: HandlerContext, userId: string, update: TeamAssignmentUpdate | undefined): Promise<object>;
  /** `teamIds` of `POST /api/user/`: parsed and checked before the insert. */
  parseCreateTeams(ctx: HandlerContext, customerId: number, teamIds: string | undefined): Promise<ResourceTeamAssignment[]>;
  /** Quick filters (document 2 "Quick filter" is team-assignable). */
  quickFilters: ResourceTeams;
  /** In the create transaction, after the user row is inserted. */
  assignCreatedUser(trx: Knex.Transaction, userId: string, customerId: number, teams: ResourceTeamAssignment[]): Promise<void>;
}

export function coreTeams(input: { knex: Knex; outbox: Outbox; newId: IdGenerator; peers: Peers; logger: CoreLogger }): CoreTeams {
  const { knex } = input;
  const writeFact = teamFactWriter(input.outbox);
  const tables = teamResourceTables([USER_TEAM_TABLE, QUICK_FILTER_TEAM_TABLE]);
  const facts = coreTeamFacts(knex);
  const access = createTeamAccessResolver(facts);
  const directory = localTeamDirectory(knex);
  const users = resourceTeams(USER_TEAM_TABLE, access, directory);
  const assignmentDeps: TeamAssignmentDeps = {
    knex,
    tables,
    teams: directory,
    access,
    onWritten: (trx, table, ids) => (table.resourceType === "user" ? publishMembershipsOf(writeFact, trx, ids) : Promise.resolve()),
  };
  const local = teamAssignmentService(assignmentDeps);

  return {
    register(router) {
      router.service(TeamService, teamService({ knex, newId: input.newId, peers: input.peers, logger: input.logger, tables, local, writeFact }));
      router.service(TeamAssignmentService, local);
    },
    access,
    accessOfAuth: (auth) => teamAccessForCaller(facts, auth.caller),
    quickFilters: resourceTeams(QUICK_FILTER_TEAM_TABLE, access, directory),
    updateUserTeams: (ctx, userId, update) => updateResourceTeams(ctx, assignmentDeps, "user", userId, update),
    // A user is team-enabled like any resource: its creator must be able to write it (creator-access.ts).
    parseCreateTeams: (ctx, customerId, teamIds) => users.parseCreate(ctx, customerId, teamIds),
    async assignCreatedUser(trx, userId, customerId, teams) {
      if (teams.length === 0) return;
      await assignOnCreate(trx, USER_TEAM_TABLE, { resourceId: userId, customerId, teams });
      await publishMembershipsOf(writeFact, trx, [userId]);
    },
  };
}

