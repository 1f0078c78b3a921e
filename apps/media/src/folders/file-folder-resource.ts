// The folder list's fields (document 1 "File folder"; filters `parentId`
// (`=NULL` for roots) and recursive `fileFolderPath`).
import { defineResource } from "@signage/query";

export const fileFolderResource = defineResource({
  table: "file_folder",
  alias: "f",
  idColumn: "id",
  tenantColumn: "customer_id",
  defaultSort: ["name,asc"],
  fields: {
    id: { type: "id", sqlType: "uuid" },
    name: { type: "string", index: "trgm" },
    customerId: { type: "number", sqlType: "bigint", column: "customer_id" },
    fileFolderType: { type: "number", sqlType: "integer" },
    syncType: { type: "string" },
    cleanupOutdatedFiles: { type: "boolean" },
    quickFilterId: { type: "id", sqlType: "text" },
    autoSync: { type: "boolean" },
  },
  folder: { parentField: "parentId", pathField: "fileFolderPath", parentColumn: "parent_id", pathColumn: "path", idType: "uuid" },
});
