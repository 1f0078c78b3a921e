// `selectTeamIds` of the library lists (document 2: "Also accepted by many lists:
// ... `selectTeamIds` (comma separated)"): a comma separated list of team ids.
// Team ids are UUIDs here, so an item that is none ("nope", a team name, the
// `teamId:readOnly` pair of `teamIds=` on create) names no team and never can:
// a 400 saying so, not an empty page that looks like "this team has nothing".
// A well-formed id of a team without resources (or of no team) still filters
// to nothing, like any filter that matches no row.
// TODO(libs/query): the same check belongs in parseTeamIds / teamSelectionFilter
// (which know `resource.teams.teamIdType`) for every service's lists.
import { InvalidListParameterError, type ResourceRegistry } from "@signage/query";

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const INTEGER = /^-?[0-9]+$/;

function holds(type: "text" | "uuid" | "bigint", id: string): boolean {
  if (type === "uuid") return UUID.test(id);
  if (type === "bigint") return INTEGER.test(id);
  return true;
}

/** 400 `selectTeamIds.error.invalid` when an item of `selectTeamIds` cannot be a team id of the resource's team assignments. */
export function checkSelectTeamIds(resource: ResourceRegistry, value: string | undefined): void {
  if (value === undefined || resource.teams === null) return; // absent, or refused by the list itself
  const type = resource.teams.teamIdType;
  const bad = value.split(",").map((item) => item.trim()).filter((item) => item !== "" && !holds(type, item));
  if (bad.length === 0) return;
  const pair = bad.find((item) => item.includes(":"));
  const hint = pair
    ? ` ('${pair}' looks like a teamIds 'teamId:readOnly' pair; selectTeamIds takes the ids alone)`
    : "";
  throw new InvalidListParameterError(
    `Invalid selectTeamIds: '${bad[0]}' is not a team id; expected comma separated team ids${type === "uuid" ? " (UUIDs)" : ""}${hint}`,
    "selectTeamIds",
    value,
  );
}
