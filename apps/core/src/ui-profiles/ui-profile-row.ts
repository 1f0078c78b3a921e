import { create, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { UserInterfaceProfileSchema, type UserInterfaceProfile } from "@signage/contracts/signage/core/v1/ui_profile_pb";

/** A `ui_profile` row as knex returns it. */
export interface UiProfileRow {
  id: number;
  customer_id: number;
  name: string;
  comment: string | null;
  hidden_ui_element_rules: JsonValue;
  created_date: Date;
}

export function uiProfileToMessage(row: UiProfileRow): UserInterfaceProfile {
  return create(UserInterfaceProfileSchema, {
    id: BigInt(row.id),
    name: row.name,
    comment: row.comment ?? undefined,
    hiddenUiElementRules: fromJson(ValueSchema, row.hidden_ui_element_rules),
    customerId: BigInt(row.customer_id),
  });
}
