// The team list's fields (document 2 "Team": name, comment).
import { defineResource } from "@signage/query";

export const teamResource = defineResource({
  table: "team",
  alias: "t",
  idColumn: "id",
  tenantColumn: "customer_id",
  defaultSort: ["name,asc"],
  fields: {
    id: { type: "id", sqlType: "uuid" },
    name: { type: "string" },
    comment: { type: "string" },
    createdDate: { type: "timestamp" },
    customerId: { type: "number", sqlType: "bigint", column: "customer_id" },
  },
});
