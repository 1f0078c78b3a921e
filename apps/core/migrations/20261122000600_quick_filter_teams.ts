// Quick filters are team-assignable (document 2 "Team": resource types assignable
// to teams): the `team_ids` column that list visibility reads.
import type { Knex } from "knex";
import { addTeamIdsColumn, dropTeamIdsColumn } from "@signage/runtime";

export async function up(knex: Knex): Promise<void> {
  await addTeamIdsColumn(knex, "quick_filter");
}

export async function down(knex: Knex): Promise<void> {
  await dropTeamIdsColumn(knex, "quick_filter");
}
