// Which of the embedded ListQuery parameters a list takes. Team selection needs a resource with
// team assignments (libs/query team-selection.ts refuses `selectTeamIds` otherwise), and "all
// team-enabled resources expose `teamAssignments`": a Page whose row message has no
// `team_assignments` field refuses them, so they are not declared there.
import type { DescField, DescMethod } from "@bufbuild/protobuf";

const TEAM_SELECTION = new Set(["select_team_ids", "include_resources_without_team"]);

function pageRowHasTeams(method: DescMethod): boolean | undefined {
  const content = method.output.fields.find((f) => f.name === "content");
  if (content?.fieldKind !== "list" || content.listKind !== "message") return undefined;
  return content.message.fields.some((f) => f.name === "team_assignments");
}

/** The ListQuery fields a list declares: all of them unless its rows show they cannot apply. */
export function applicableListFields(method: DescMethod, listQueryFields: readonly DescField[]): DescField[] {
  if (pageRowHasTeams(method) !== false) return [...listQueryFields];
  return listQueryFields.filter((f) => !TEAM_SELECTION.has(f.name));
}
