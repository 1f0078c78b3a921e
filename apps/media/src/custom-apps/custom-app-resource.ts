// The private-app list's fields (document 1 "Private app (customer-owned)").
// Indexes for every filter are created by migration 20261122000400_custom_apps.
import { defineResource } from "@signage/query";

export const CUSTOM_APP_TYPES = ["WIDGET", "HTML_BUNDLE"] as const;
export const WIDGET_CATEGORIES = ["CUSTOM_APPS", "BASIC", "MEDIA", "CHARTS", "INTERACTIONS"] as const;
export const OWNERSHIP_TYPES = ["PLATFORM", "CUSTOMER"] as const;

export const customAppResource = defineResource({
  name: "customApp",
  table: "custom_app",
  alias: "a",
  idColumn: "id",
  tenantColumn: "customer_id",
  defaultSort: ["name,asc"],
  fields: {
    id: { type: "id", sqlType: "bigint" },
    name: { type: "string", index: ["trgm", "btree"] },
    appId: { type: "string", index: "btree" },
    description: { type: "string" },
    enabled: { type: "boolean", index: "btree" },
    version: { type: "string" },
    ownershipType: { type: "enum", values: OWNERSHIP_TYPES },
    customerId: { type: "number", sqlType: "bigint", column: "customer_id" },
    sizeBytes: { type: "number", sqlType: "bigint" },
    lastUpdated: { type: "timestamp", index: "btree" },
    type: { type: "enum", values: CUSTOM_APP_TYPES, index: "btree" },
    widgetCategory: { type: "enum", values: WIDGET_CATEGORIES, index: "btree" },
    appRootPath: { type: "string" },
    entryPoint: { type: "string" },
    iconPath: { type: "string" },
    config: { type: "json" },
    resourceList: { type: "json", searchable: false },
  },
});
