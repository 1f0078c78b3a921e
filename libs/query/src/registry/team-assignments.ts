import type { IdSqlType, RelationFieldSpec } from "./field-spec.js";
import { defineResource } from "./define-resource.js";
import { assertIdentifier, assertTableName } from "./naming.js";
import type { TeamsConfig } from "./resource.js";

export interface TeamsOptions {
  /** `<resource>_team_assignment(resource_id, team_id, read_only)` */
  readonly table: string;
  readonly resourceIdColumn?: string;
  readonly teamIdColumn?: string;
  readonly readOnlyColumn?: string;
  readonly teamIdType?: IdSqlType;
  /** Table of teams, for `teamAssignments(team(id,name))` in select. */
  readonly teamTable?: string;
  readonly teamNameColumn?: string;
  /** JSON name of the relation; the documented one is `teamAssignments`. */
  readonly field?: string;
}

/**
 * `teamAssignments` as a to-many relation: each assignment has `readOnly` and a to-one `team`.
 * `teamAssignments.team.id=<id>` compiles to EXISTS on the assignment table (team_id compared
 * directly, the team table is not joined); `teamAssignments=NULL` to NOT EXISTS.
 */
export function teamAssignmentsField(options: TeamsOptions, resourceIdColumn: string): { field: RelationFieldSpec; config: TeamsConfig } {
  assertTableName(options.table, "teams.table");
  const config: TeamsConfig = {
    field: options.field ?? "teamAssignments",
    table: options.table,
    resourceIdColumn: options.resourceIdColumn ?? "resource_id",
    teamIdColumn: options.teamIdColumn ?? "team_id",
    readOnlyColumn: options.readOnlyColumn ?? "read_only",
    teamIdType: options.teamIdType ?? "text",
  };
  for (const column of [config.resourceIdColumn, config.teamIdColumn, config.readOnlyColumn]) assertIdentifier(column, "teams column");
  const team = defineResource({
    table: options.teamTable ?? "team",
    fields: {
      id: { type: "id", sqlType: config.teamIdType },
      name: { type: "string", column: options.teamNameColumn ?? "name" },
    },
  });
  const assignment = defineResource({
    name: `${config.field} of ${options.table}`,
    table: options.table,
    alias: "assignment",
    idColumn: null,
    fields: {
      readOnly: { type: "boolean", column: config.readOnlyColumn },
      team: { type: "relation", cardinality: "one", target: team, localColumn: config.teamIdColumn, targetColumn: "id" },
    },
  });
  return {
    config,
    field: {
      type: "relation",
      cardinality: "many",
      target: assignment,
      localColumn: resourceIdColumn,
      targetColumn: config.resourceIdColumn,
      orderColumn: config.teamIdColumn,
    },
  };
}
