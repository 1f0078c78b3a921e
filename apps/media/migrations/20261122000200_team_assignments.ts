// Team assignments of files and file folders (document 2 "Teams on
// resources"), `team_ids` on both tables for visibility, and the replica of
// core's team facts (teams, users' restricted flag and memberships, the
// customer's team access settings) fed by team.* / user.* events.
import type { Knex } from "knex";
import { addTeamIdsColumn, createTeamAssignmentTable, createTeamReplicaTables, dropTeamIdsColumn } from "@signage/runtime";

export async function up(knex: Knex): Promise<void> {
  await createTeamReplicaTables(knex);
  await createTeamAssignmentTable(knex);
  await addTeamIdsColumn(knex, "file_folder");
  await addTeamIdsColumn(knex, "file");
}

export async function down(knex: Knex): Promise<void> {
  await dropTeamIdsColumn(knex, "file");
  await dropTeamIdsColumn(knex, "file_folder");
  for (const table of ["team_assignment", "team_settings", "team_membership", "team_user", "team"]) await knex.schema.dropTableIfExists(table);
}
