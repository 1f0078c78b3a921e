import type { JsonObject } from "@bufbuild/protobuf";
import type { FilteredEntityTypeName } from "@signage/runtime";
import type { AssignmentJson } from "../teams/assignments-json.js";

export interface QuickFilterRow {
  id: string;
  customer_id: string | number;
  name: string;
  filtered_entity_type: FilteredEntityTypeName;
  criteria: JsonObject;
  listed: boolean;
  custom: boolean;
  read_only: boolean;
  team_assignments?: AssignmentJson[] | null;
}
