// The quick filter list's fields (document 2 "Quick filter"). `readOnly` and
// the usage details are computed from the usage index (quick_filter_usage).
import { defineResource } from "@signage/query";
import { FILTERED_ENTITY_TYPES } from "@signage/runtime";

/** "readOnly: computed: true when used by channels or sub-channels". */
export const READ_ONLY_USER_TYPES = ["CAMPAIGN", "MESSAGE"] as const;

const usedBy = (type: string) =>
  `(select jsonb_build_object('ids', coalesce(jsonb_agg(u.used_by_id order by u.used_by_id), '[]'::jsonb)) from quick_filter_usage u where u.quick_filter_id = ??::text and u.used and u.used_by_type = '${type}')`;

export const quickFilterResource = defineResource({
  table: "quick_filter",
  alias: "qf",
  idColumn: "id",
  tenantColumn: "customer_id",
  defaultSort: ["name,asc"],
  teams: { table: "team_assignment", teamIdType: "uuid" },
  fields: {
    id: { type: "id", sqlType: "uuid" },
    name: { type: "string" },
    filteredEntityType: { type: "enum", values: FILTERED_ENTITY_TYPES },
    criteria: { type: "json" },
    listed: { type: "boolean" },
    custom: { type: "boolean" },
    customerId: { type: "number", sqlType: "bigint", column: "customer_id" },
    readOnly: {
      type: "boolean",
      computed: {
        sql: `exists (select 1 from quick_filter_usage u where u.quick_filter_id = ??::text and u.used and u.used_by_type in ('CAMPAIGN', 'MESSAGE'))`,
        columns: ["id"],
      },
    },
    campaignUsageDetails: { type: "json", selectOnly: true, searchable: false, computed: { sql: usedBy("CAMPAIGN"), columns: ["id"] } },
    messageUsageDetails: { type: "json", selectOnly: true, searchable: false, computed: { sql: usedBy("MESSAGE"), columns: ["id"] } },
  },
});
