import { defineResource } from "@signage/query";

/** The device list as a service would declare it (documented field names). */
export const deviceResource = defineResource({
  table: "device",
  tenantColumn: "customer_id",
  defaultSort: ["name,asc"],
  folder: { parentField: "deviceGroupId", pathField: "deviceGroupPath" },
  teams: { table: "device_team_assignment", teamTable: "team" },
  fields: {
    name: { type: "string", index: ["trgm", "btree"] },
    comment: { type: "string" },
    deviceStatus: { type: "enum", values: ["ONLINE", "OFFLINE"] },
    lastActivity: { type: "timestamp" },
    tags: { type: "stringArray", index: "gin" },
    deviceInfo: { type: "json", selectOnly: true },
  },
});
