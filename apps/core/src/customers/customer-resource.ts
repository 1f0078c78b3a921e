// The customer list's fields for search, sort and select (document 2 "Customer";
// filters `ownerSubresellerId=<id>`, `subreseller=!NULL`). A customer's tenant is itself.
import { defineResource } from "@signage/query";

const VERTICALS = [
  "BANKING_AND_FINANCE", "EMPLOYEE_CORPORATE_COMMUNICATION", "CORPORATE_MEETING_ROOMS", "DIGITAL_SIGNAGE",
  "EDUCATION_COLLAGE_AND_UNIVERSITIES", "CONFERENCE_AND_CONVENTION_CENTERS", "GOVERNMENT", "HEALTHCARE", "HOSPITALITY",
  "QUICK_SERVICE_RESTAURANT", "RETAIL", "SPORTS", "PETROL_STATIONS", "TRANSPORTATION", "ENTERTAINMENT",
  "WAYFINDING_AND_DIRECTORIES", "OTHER", "FACTORY_PRODUCEMENT", "BUSINESS_PARTNER", "RESELLER_PARTNER", "TECHNOLOGY_PARTNER",
] as const;

export const customerResource = defineResource({
  table: "customer",
  alias: "c",
  idColumn: "id",
  tenantColumn: "id",
  defaultSort: ["name,asc"],
  fields: {
    id: { type: "id", sqlType: "bigint" },
    name: { type: "string", index: "trgm" },
    comment: { type: "string" },
    country: { type: "string" },
    location: { type: "string" },
    type: { type: "string" },
    vertical: { type: "enum", values: VERTICALS },
    createdDate: { type: "timestamp" },
    expirationDate: { type: "timestamp" },
    restricted: { type: "boolean" },
    force2FA: { type: "boolean", column: "force_2fa" },
    needsToBeInvoiced: { type: "boolean" },
    licenseTier: { type: "enum", values: ["STARTER", "BUSINESS", "ENTERPRISE"] },
    resourceLimits: { type: "json" },
    freeLicenses: { type: "number", sqlType: "bigint" },
    browserSessionLicenses: { type: "number", sqlType: "bigint" },
    deviceSessionLimit: { type: "number", sqlType: "bigint" },
    // "activeLicenses, totalLicenses | computed: device count; sum of approved license order amounts":
    // devices and license orders live in services not built yet, so both are 0 (as customer-mapper.ts answers).
    activeLicenses: { type: "number", sqlType: "bigint", computed: { sql: "0", columns: [] } },
    totalLicenses: { type: "number", sqlType: "bigint", computed: { sql: "0", columns: [] } },
    storageSize: { type: "number", sqlType: "bigint" },
    // "currentTotalCustomerStorageSize, currentDatasourceStorageSize, currentCustomerFilesStorageSize | computed":
    // the bytes live in media, so the SQL only reserves the selected field (NULL) and
    // customer-storage.ts fills the page with one media call; not searchable or sortable here.
    currentTotalCustomerStorageSize: { type: "number", sqlType: "bigint", computed: { sql: "NULL::bigint", columns: [] }, searchable: false, sortable: false },
    currentDatasourceStorageSize: { type: "number", sqlType: "bigint", computed: { sql: "NULL::bigint", columns: [] }, searchable: false, sortable: false },
    currentCustomerFilesStorageSize: { type: "number", sqlType: "bigint", computed: { sql: "NULL::bigint", columns: [] }, searchable: false, sortable: false },
    ownerSubresellerId: { type: "number", sqlType: "bigint", index: "btree" },
    ownerSubresellerName: { type: "string", computed: { sql: "(SELECT o.name FROM customer o WHERE o.id = ??)", columns: ["owner_subreseller_id"] } },
    // "subreseller (object, present when the customer is a network owner)": computed, so it is
    // rendered when selected; `subreseller=!NULL` finds network owners (partial index on subreseller_since).
    subreseller: {
      type: "json",
      computed: {
        sql: "CASE WHEN ?? IS NULL THEN NULL ELSE jsonb_build_object('id', ??, 'ownedCustomerCount', (SELECT count(*) FROM customer m WHERE m.owner_subreseller_id = ??)) END",
        columns: ["subreseller_since", "id", "id"],
      },
    },
    hiddenUIElementRules: { type: "json", column: "hidden_ui_element_rules", selectOnly: true },
    customerMetadata: { type: "json", selectOnly: true },
    defaultEmergencyContentId: { type: "string", selectOnly: true },
  },
});
