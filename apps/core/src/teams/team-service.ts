// TeamService: document 2 "Team" and the team rows of "Teams, tags, users,
// quick filters". Team CRUD is core's own; the assignment views go to the
// service that owns the resource type (team-assignment-owners.ts).
import { Code, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import type { Knex } from "knex";
import { applyScope, requireAuth, serviceError, singleTenant, type AuthContext } from "@signage/auth";
import { TeamSchema, type Team, type TeamService } from "@signage/contracts/signage/core/v1/team_pb";
import type { TeamAssignmentService } from "@signage/contracts/signage/teams/v1/team_assignments_pb";
import { listRpc, matchesAnyUuid, removeTeamEverywhere, TeamEvent, type Peers, type ServiceName, type TeamResourceTables, missingParameter, requireParameter, isUuid } from "@signage/runtime";
import type { IdGenerator } from "@signage/db";
import type { CoreLogger } from "../deps.js";
import { teamResource } from "./team-resource.js";
import type { TeamFactWriter } from "./team-outbox.js";
import { assignmentOwner } from "./team-assignment-owners.js";
import { countField, idParamOf, OWNER_OF, requireTeamEnabled, TEAM_ENABLED, teamResourceType } from "./resource-types.js";
import { publishMembershipsOf } from "./user-teams.js";

export interface TeamServiceDeps {
  knex: Knex;
  newId: IdGenerator;
  peers: Peers;
  logger: CoreLogger;
  tables: TeamResourceTables;
  /** Core's own TeamAssignmentService (users and core resources). */
  local: ServiceImpl<typeof TeamAssignmentService>;
  /** Team facts into the outbox, in the caller's transaction. */
  writeFact: TeamFactWriter;
}

interface TeamRow {
  id: string;
  customer_id: string;
  name: string;
  comment: string | null;
  created_date: Date;
}

const teamNotFound = (id: string) => serviceError(Code.NotFound, "team.error.notFound", `Team '${id}' not found`, { id });

function toTeam(row: TeamRow): Team {
  return { id: row.id, name: row.name, comment: row.comment ?? undefined, customerId: BigInt(row.customer_id), createdDate: BigInt(row.created_date.getTime()) } as Team;
}

function checkName(name: string | undefined, required: boolean): string | undefined {
  if (name === undefined) {
    if (required) throw serviceError(Code.InvalidArgument, "team.error.nameRequired", "A team needs a name");
    return undefined;
  }
  const trimmed = name.trim();
  if (trimmed === "") throw serviceError(Code.InvalidArgument, "team.error.nameRequired", "A team needs a non-empty name");
  // Names are at most 255 characters, as customer and UI profile names.
  if (trimmed.length > 255) throw serviceError(Code.InvalidArgument, "team.error.nameTooLong", "A team name has at most 255 characters", { field: "name", maxLength: 255 });
  return trimmed;
}

export function teamService(deps: TeamServiceDeps): ServiceImpl<typeof TeamService> {
  const { knex } = deps;

  async function loadTeam(auth: AuthContext, id: string): Promise<TeamRow> {
    if (!isUuid(id)) throw teamNotFound(id);
    const row = await applyScope(knex("team").where({ id }), auth.scope, "customer_id").first();
    if (!row) throw teamNotFound(id);
    return row;
  }

  /** Adds teamUserNumber / team{Resource}Number: one grouped query per owning service. */
  async function addCounts(ctx: HandlerContext, teams: Team[], users: boolean, resources: boolean): Promise<void> {
    if (teams.length === 0 || (!users && !resources)) return;
    const byCustomer = new Map<bigint, Team[]>();
    for (const t of teams) byCustomer.set(t.customerId!, [...(byCustomer.get(t.customerId!) ?? []), t]);
    const owners = new Set<ServiceName>(["core"]);
    if (resources) for (const type of TEAM_ENABLED) owners.add(OWNER_OF[type]);
    for (const [customerId, group] of byCustomer) {
      const ids = group.map((t) => t.id);
      const counts = new Map<string, Map<string, bigint>>();
      for (const service of owners) {
        try {
          const answer = await assignmentOwner(ctx, service, deps.local, deps.peers).countTeamResources({ customerId, teamIds: ids });
          for (const c of answer.counts) {
            const perTeam = counts.get(c.teamId) ?? new Map<string, bigint>();
            perTeam.set(c.resourceType, BigInt(c.count));
            counts.set(c.teamId, perTeam);
          }
        } catch (error) {
          // A service missing from this composition leaves its counts out rather than failing the list.
          deps.logger.warn({ err: error, service }, "team assignment counts unavailable");
        }
      }
      for (const team of group) {
        const perTeam = counts.get(team.id) ?? new Map();
        const record = team as unknown as Record<string, bigint>;
        if (users) record.teamUserNumber = perTeam.get("user") ?? 0n;
        if (resources) for (const type of TEAM_ENABLED) if (type !== "user") record[countField(type)] = perTeam.get(type) ?? 0n;
      }
    }
  }

  return {
    async listTeams(req, ctx) {
      const auth = requireAuth(ctx);
      const page = await listRpc(ctx, { knex, resource: teamResource, message: TeamSchema, query: req.query, scope: auth.scope });
      if (req.includeTeamUserNumber || req.includeTeamResourceNumber) {
        // Counts need the team's tenant, also when `select` left customerId out.
        const tenants = new Map<string, bigint>(
          (await knex("team").whereIn("id", page.content.map((t) => t.id)).select("id", "customer_id")).map((r: { id: string; customer_id: string }) => [r.id, BigInt(r.customer_id)]),
        );
        const unselected = new Set(page.content.filter((t) => t.customerId === undefined));
        const withTenant = page.content.map((t) => Object.assign(t, { customerId: t.customerId ?? tenants.get(t.id) }));
        await addCounts(ctx, withTenant, req.includeTeamUserNumber === true, req.includeTeamResourceNumber === true);
        // Borrowed for the counts only: a `select` that left customerId out gets none.
        for (const team of unselected) team.customerId = undefined;
      }
      return page;
    },

    async createTeam(req, ctx) {
      const auth = requireAuth(ctx);
      const customerId = auth.scope.kind === "global" ? auth.caller.customerId : singleTenant(auth.scope);
      const name = checkName(req.team?.name, true)!;
      const id = deps.newId();
      await knex.transaction(async (trx) => {
        await trx("team").insert({ id, customer_id: customerId, name, comment: req.team?.comment ?? null });
        await deps.writeFact(trx, TeamEvent.created, customerId, { id, customerId, name });
      });
      return { team: toTeam(await loadTeam(auth, id)) };
    },

    async updateTeam(req, ctx) {
      const auth = requireAuth(ctx);
      const team = await loadTeam(auth, requireParameter(req.teamId, "teamId"));
      const name = checkName(req.team?.name, false);
      const columns: Record<string, unknown> = {};
      if (name !== undefined) columns.name = name;
      if (req.team?.comment !== undefined) columns.comment = req.team.comment;
      if (Object.keys(columns).length > 0) {
        await knex.transaction(async (trx) => {
          await trx("team").where({ id: team.id }).update(columns);
          await deps.writeFact(trx, TeamEvent.updated, Number(team.customer_id), { id: team.id, customerId: Number(team.customer_id), name: name ?? team.name });
        });
      }
      return { team: toTeam(await loadTeam(auth, team.id)) };
    },

    async deleteTeam(req, ctx) {
      const auth = requireAuth(ctx);
      const team = await loadTeam(auth, req.id);
      const customerId = Number(team.customer_id);
      await knex.transaction(async (trx) => {
        const members = await trx("team_assignment").where({ team_id: team.id, resource_type: "user" }).pluck("resource_id");
        // Core's own resources now; every other service on `team.deleted`.
        await removeTeamEverywhere(trx, deps.tables.values(), team.id);
        await trx("team").where({ id: team.id }).delete();
        await publishMembershipsOf(deps.writeFact, trx, members);
        await deps.writeFact(trx, TeamEvent.deleted, customerId, { id: team.id, customerId, name: team.name });
      });
      return {};
    },

    async listTeamResourceAssignments(req, ctx) {
      const type = teamResourceType(req.resourceType);
      const team = await loadTeam(requireAuth(ctx), requireParameter(req.teamId, "teamId"));
      const owner = assignmentOwner(ctx, requireTeamEnabled(type), deps.local, deps.peers);
      // The owner lists only what the caller's teams let it see (libs/runtime listTeamResources).
      const { assignments } = await owner.listTeamResources({ customerId: BigInt(team.customer_id), resourceType: type, teamId: team.id });
      return { assignments };
    },

    async listResourceTeamAssignments(req, ctx) {
      const type = teamResourceType(req.resourceType);
      const owner = assignmentOwner(ctx, requireTeamEnabled(type), deps.local, deps.peers);
      const { assignments } = await owner.listResourceTeams({ customerId: req.customerId, resourceType: type, resourceId: req.resourceId });
      return { assignments };
    },

    async updateTeamResourceAssignments(req, ctx) {
      const type = teamResourceType(req.resourceType);
      const team = await loadTeam(requireAuth(ctx), requireParameter(req.teamId, "teamId"));
      const owner = assignmentOwner(ctx, requireTeamEnabled(type), deps.local, deps.peers);
      await owner.updateTeamResources({ customerId: BigInt(team.customer_id), resourceType: type, teamId: team.id, update: req.update });
      return {};
    },

    async updateResourceTeamAssignments(req, ctx) {
      const type = teamResourceType(req.resource);
      const idParam = idParamOf(type);
      const id = ((req as unknown as Record<string, unknown>)[idParam] as string | undefined) ?? req.id;
      if (!id?.trim()) throw missingParameter(idParam, `Query parameter '${idParam}' (or 'id') is required`);
      const owner = assignmentOwner(ctx, requireTeamEnabled(type), deps.local, deps.peers);
      await owner.updateResourceTeams({ customerId: req.customerId, resourceType: type, resourceId: id, update: req.update });
      return {};
    },

    async getTeams(req, ctx) {
      const ids = req.teamIds.filter(isUuid);
      if (ids.length === 0) return { teams: [] };
      // One array parameter: a caller (media's team directory) may ask for more ids than an IN list takes.
      const rows = await applyScope(knex("team").whereRaw(...matchesAnyUuid("id", ids)), requireAuth(ctx).scope, "customer_id").select("*");
      return { teams: rows.map(toTeam) };
    },
  };
}
