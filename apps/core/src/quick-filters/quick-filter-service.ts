// QuickFilterService: document 2 "Quick filter" and the quick filter rows of
// "Teams, tags, users, quick filters", plus the internal CompileQuickFilter
// every list uses to apply `quickFilterId`.
import { Code, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import { requireAuth, resourceAccess, serviceError, singleTenant, type AuthContext } from "@signage/auth";
import { FilteredEntityType, QuickFilterSchema, type QuickFilterService } from "@signage/contracts/signage/core/v1/quick_filter_pb";
import { printFilter } from "@signage/query";
import { isFilteredEntityType, listRpc, type FilteredEntityTypeName, requireParameter } from "@signage/runtime";
import type { Knex } from "knex";
import type { IdGenerator } from "@signage/db";
import { isUniqueViolation } from "../customers/customer-repository.js";
import { checkCriteria, criteriaToFilter } from "./criteria.js";
import { quickFilterToMessage } from "./quick-filter-mapper.js";
import { findQuickFilter, usagesOf, usedByFilteredFolder } from "./quick-filter-repository.js";
import { quickFilterResource } from "./quick-filter-resource.js";
import type { ResourceTeams } from "../teams/resource-teams.js";
import { assignmentFacts } from "../teams/assignments-json.js";

export interface QuickFilterServiceDeps {
  knex: Knex;
  newId: IdGenerator;
  /** Quick filters are team-assignable: visibility, `teamIds` on create, read-only refusal. */
  teams: ResourceTeams;
}

const notFound = (id: string) => serviceError(Code.NotFound, "quickFilter.error.notFound", `Quick filter '${id}' not found`, { quickFilterId: id });
const nameTaken = (name: string) => serviceError(Code.AlreadyExists, "quickFilter.error.nameTaken", `A quick filter named '${name}' already exists`, { name });

function entityTypeName(value: FilteredEntityType | undefined): FilteredEntityTypeName | undefined {
  const name = value === undefined ? undefined : FilteredEntityType[value];
  return isFilteredEntityType(name) ? name : undefined;
}

/** A create or update body's filteredEntityType: undefined when absent or UNSPECIFIED; a number the contract does not define is 400, never dropped. */
function requestedEntityType(value: FilteredEntityType | undefined): FilteredEntityTypeName | undefined {
  if (value === undefined || value === FilteredEntityType.UNSPECIFIED) return undefined;
  const name = entityTypeName(value);
  if (!name) {
    throw serviceError(Code.InvalidArgument, "quickFilter.error.invalidEntityType", `filteredEntityType ${value} is not one of FILE, CONTENT, DEVICE`, { field: "filteredEntityType", value });
  }
  return name;
}

function checkName(name: string | undefined): string {
  const trimmed = name?.trim();
  if (!trimmed) throw serviceError(Code.InvalidArgument, "quickFilter.error.nameRequired", "name is required", { field: "name" });
  // Names are at most 255 characters, as customer and UI profile names.
  if (trimmed.length > 255) throw serviceError(Code.InvalidArgument, "quickFilter.error.nameTooLong", "name must be at most 255 characters", { field: "name", maxLength: 255 });
  return trimmed;
}

function targetCustomer(auth: AuthContext): number {
  return auth.scope.kind === "global" ? auth.caller.customerId : singleTenant(auth.scope);
}

export function quickFilterService(deps: QuickFilterServiceDeps): ServiceImpl<typeof QuickFilterService> {
  const { knex, newId } = deps;

  /**
   * The quick filter as the caller may see it: "restricted = sees only team-assigned
   * resources", so one its teams hide is as missing as one that does not exist (same 404).
   */
  async function load(ctx: HandlerContext, id: string, db: Knex | Knex.Transaction = knex, forUpdate = false) {
    const row = await findQuickFilter(db, requireAuth(ctx).scope, id, forUpdate);
    if (!row || resourceAccess(await deps.teams.access(ctx), assignmentFacts(row.team_assignments)) === "none") throw notFound(id);
    return row;
  }

  return {
    async listQuickFilters(req, ctx) {
      return listRpc(ctx, { knex, resource: quickFilterResource, message: QuickFilterSchema, query: req.query, scope: requireAuth(ctx).scope, teams: await deps.teams.access(ctx) });
    },

    async getQuickFilter(req, ctx) {
      const row = await load(ctx, req.id);
      const quickFilter = quickFilterToMessage(row);
      // As the list's includeReadOnlyInfo answers it: used by channels or sub-channels, or read-only through the caller's teams.
      if (resourceAccess(await deps.teams.access(ctx), assignmentFacts(row.team_assignments)) === "read") quickFilter.readOnly = true;
      return { quickFilter };
    },

    async createQuickFilter(req, ctx) {
      const auth = requireAuth(ctx);
      const fields = req.quickFilter;
      const name = checkName(fields?.name);
      const entityType = requestedEntityType(fields?.filteredEntityType);
      if (!entityType) {
        throw serviceError(Code.InvalidArgument, "quickFilter.error.entityTypeRequired", "filteredEntityType is required: FILE, CONTENT or DEVICE", { field: "filteredEntityType" });
      }
      const criteria = checkCriteria(entityType, fields?.criteria);
      const customerId = targetCustomer(auth);
      const teams = await deps.teams.parseCreate(ctx, customerId, req.teamIds);
      const id = newId();
      try {
        await knex.transaction(async (trx) => {
          await trx("quick_filter").insert({
          id,
          customer_id: customerId,
          name,
          filtered_entity_type: entityType,
          criteria: JSON.stringify(criteria),
          listed: fields?.listed ?? false,
          custom: fields?.custom ?? false,
          });
          await deps.teams.assignCreated(trx, id, customerId, teams);
        });
      } catch (e) {
        if (isUniqueViolation(e)) throw nameTaken(name);
        throw e;
      }
      return { quickFilter: quickFilterToMessage((await findQuickFilter(knex, auth.scope, id))!) };
    },

    async updateQuickFilter(req, ctx) {
      const fields = req.quickFilter;
      const quickFilterId = requireParameter(req.quickFilterId, "quickFilterId");
      await knex.transaction(async (trx) => {
        const row = await load(ctx, quickFilterId, trx, true);
        await deps.teams.assertWritable(ctx, trx, row.id);
        // "readOnly: computed: true when used by channels or sub-channels": what they play must not change under them.
        if (row.read_only) {
          throw serviceError(Code.FailedPrecondition, "quickFilter.error.readOnly", "The quick filter is used by channels or sub-channels and is read-only", { quickFilterId: row.id });
        }
        const requestedType = requestedEntityType(fields?.filteredEntityType);
        if (requestedType !== undefined && requestedType !== row.filtered_entity_type) {
          throw serviceError(Code.InvalidArgument, "quickFilter.error.entityTypeImmutable", "filteredEntityType is immutable", {
            filteredEntityType: row.filtered_entity_type,
            requested: requestedType,
          });
        }
        const columns: Record<string, unknown> = {};
        if (fields?.name !== undefined) columns.name = checkName(fields.name);
        if (fields?.criteria !== undefined) columns.criteria = JSON.stringify(checkCriteria(row.filtered_entity_type, fields.criteria));
        if (fields?.listed !== undefined) columns.listed = fields.listed;
        if (fields?.custom !== undefined) columns.custom = fields.custom;
        if (Object.keys(columns).length === 0) return;
        try {
          await trx("quick_filter").where({ id: row.id }).update({ ...columns, updated_at: trx.fn.now() });
        } catch (e) {
          if (isUniqueViolation(e)) throw nameTaken(String(columns.name));
          throw e;
        }
      });
      return { quickFilter: quickFilterToMessage(await load(ctx, quickFilterId)) };
    },

    async deleteQuickFilter(req, ctx) {
      const quickFilterId = requireParameter(req.quickFilterId, "quickFilterId");
      await knex.transaction(async (trx) => {
        const row = await load(ctx, quickFilterId, trx, true);
        await deps.teams.assertWritable(ctx, trx, row.id);
        const usages = await usagesOf(trx, row.id);
        if (usages.length > 0) {
          throw serviceError(Code.FailedPrecondition, "quickFilter.error.inUse", "The quick filter is in use and cannot be deleted", {
            quickFilterId: row.id,
            usedBy: usages.map((u) => ({ type: u.used_by_type, id: u.used_by_id })),
          });
        }
        await trx("quick_filter_usage").where({ quick_filter_id: row.id }).delete();
        await deps.teams.removeAll(trx, [row.id]);
        await trx("quick_filter").where({ id: row.id }).delete();
      });
      return {};
    },

    async compileQuickFilter(req, ctx) {
      // A quickFilterId the caller names must be one it may read; a filtered folder it lists applies
      // its own (only when that folder really uses this filter).
      const ofFolder = req.filteredFolderId !== undefined && (await usedByFilteredFolder(knex, req.quickFilterId, req.filteredFolderId));
      const row = ofFolder ? await findQuickFilter(knex, requireAuth(ctx).scope, req.quickFilterId) : await load(ctx, req.quickFilterId);
      if (!row) throw notFound(req.quickFilterId);
      const expected = entityTypeName(req.expectedEntityType);
      if (expected !== row.filtered_entity_type) {
        throw serviceError(Code.InvalidArgument, "quickFilter.error.entityTypeMismatch", `Quick filter '${row.id}' filters ${row.filtered_entity_type}, not ${expected ?? "an unspecified type"}`, {
          quickFilterId: row.id,
          filteredEntityType: row.filtered_entity_type,
          expected: expected ?? null,
        });
      }
      const node = criteriaToFilter(row.filtered_entity_type, row.criteria);
      return { search: node ? printFilter(node) : "", filteredEntityType: FilteredEntityType[row.filtered_entity_type] };
    },
  };
}
