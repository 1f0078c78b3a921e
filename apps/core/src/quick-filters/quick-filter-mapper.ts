import { FilteredEntityType, type QuickFilter } from "@signage/contracts/signage/core/v1/quick_filter_pb";
import type { QuickFilterRow } from "./quick-filter-row.js";
import { assignmentsToMessage } from "../teams/assignments-json.js";

export function quickFilterToMessage(row: QuickFilterRow): Omit<QuickFilter, "$typeName"> {
  return {
    id: row.id,
    name: row.name,
    filteredEntityType: FilteredEntityType[row.filtered_entity_type],
    criteria: row.criteria,
    listed: row.listed,
    custom: row.custom,
    readOnly: row.read_only,
    customerId: BigInt(row.customer_id),
    teamAssignments: assignmentsToMessage(row.team_assignments),
  };
}
