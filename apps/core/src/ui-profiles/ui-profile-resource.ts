// The UI profile list's fields (document 3 "UI profile": id, name, comment,
// hiddenUIElementRules, customerId).
import { defineResource } from "@signage/query";

export const uiProfileResource = defineResource({
  table: "ui_profile",
  alias: "p",
  idColumn: "id",
  tenantColumn: "customer_id",
  defaultSort: ["name,asc"],
  fields: {
    id: { type: "id", sqlType: "bigint" },
    name: { type: "string" },
    comment: { type: "string" },
    hiddenUIElementRules: { type: "json", column: "hidden_ui_element_rules" },
    customerId: { type: "number", sqlType: "bigint", column: "customer_id" },
  },
});
