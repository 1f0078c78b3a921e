// Users as team-assignable resources of core: their assignments are the team
// memberships. Any change of them publishes the user's full membership set
// (`user.teams.changed`) through the outbox, in the same transaction.
import type { Knex } from "knex";
import { TeamEvent, type TeamResourceTable, type UserTeamsChangedData } from "@signage/runtime";
import type { TeamFactWriter } from "./team-outbox.js";

export const USER_TEAM_TABLE: TeamResourceTable = { resourceType: "user", table: "app_user" };

export async function publishMembershipsOf(writeFact: TeamFactWriter, trx: Knex.Transaction, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  const users = await trx("app_user").whereIn("id", [...userIds]).select("id", "customer_id");
  const rows = await trx("team_assignment").whereIn("resource_id", [...userIds]).where({ resource_type: "user" }).select("resource_id", "team_id", "read_only");
  for (const user of users as { id: string; customer_id: string }[]) {
    const data: UserTeamsChangedData = {
      userId: user.id,
      customerId: Number(user.customer_id),
      teams: rows.filter((r: { resource_id: string }) => r.resource_id === user.id).map((r: { team_id: string; read_only: boolean }) => ({ teamId: r.team_id, readOnly: r.read_only })),
    };
    await writeFact(trx, TeamEvent.userTeamsChanged, data.customerId, data);
  }
}
