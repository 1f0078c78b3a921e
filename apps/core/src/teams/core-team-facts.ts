// Core answers a caller's team facts from its own tables (users, memberships
// as `team_assignment` rows of type user, the customer's settings columns).
import type { Knex } from "knex";
import { settingsFromRow, type TeamFactsSource } from "@signage/runtime";

export function coreTeamFacts(knex: Knex): TeamFactsSource {
  return async (userId, customerId) => {
    const { rows } = await knex.raw(
      `select
         (select restricted from app_user where id = ?::uuid) as restricted,
         (select row_to_json(c) from (select user_full_access_if_not_in_team, access_resources_without_team,
                 device_creation_in_root_for_team_users, content_creation_in_root_for_team_users,
                 file_creation_in_root_for_team_users from customer where id = ?) c) as settings,
         coalesce((select json_agg(json_build_object('teamId', a.team_id, 'readOnly', a.read_only))
                     from team_assignment a where a.resource_id = ?::uuid and a.resource_type = 'user'), '[]'::json) as memberships`,
      [userId, customerId, userId],
    );
    const row = rows[0];
    if (row.restricted === null) return undefined;
    return { restricted: row.restricted === true, memberships: row.memberships, settings: settingsFromRow(row.settings) };
  };
}
