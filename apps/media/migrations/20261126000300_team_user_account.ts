// The users' role, customer and deletion in the team replica (libs/runtime replica-current-user.ts):
// media refuses a deleted user's token, and one issued before a role or customer change, as core does.
import type { Knex } from "knex";
import { addUserAccountColumns, dropUserAccountColumns } from "@signage/runtime";

export async function up(knex: Knex): Promise<void> {
  await addUserAccountColumns(knex);
}

export async function down(knex: Knex): Promise<void> {
  await dropUserAccountColumns(knex);
}
