import type { JsonObject } from "@bufbuild/protobuf";
import type { FilteredEntityTypeName } from "@signage/runtime";

export interface QuickFilterRow {
  id: string;
  customer_id: string | number;
  name: string;
  filtered_entity_type: FilteredEntityTypeName;
  criteria: JsonObject;
  listed: boolean;
  custom: boolean;
  read_only: boolean;
}
