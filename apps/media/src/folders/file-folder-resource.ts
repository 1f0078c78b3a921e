// The folder list's fields (document 1 "File folder"; filters `parentId`
// (`=NULL` for roots) and recursive `fileFolderPath`). readOnly is completed per
// caller after the query (folder-list.ts); fileCount and firstFileThumbnail of
// filtered folders by filtered-folder-counts.ts.
import { defineResource, type ResourceRegistry } from "@signage/query";

const EMPTY_OBJECT = { sql: "json_build_object()", columns: [] };

/**
 * fileCount and firstFileThumbnail count the files the caller sees (document 2, "User": "restricted =
 * sees only team-assigned resources"). With full team access that is every file of the folder: one
 * correlated subquery each, sortable and searchable. A team-restricted caller lists through
 * `teamRestrictedFolderResource`, where both are filled in after the query over the files its teams
 * show (folder-contents.ts) and can be neither sorted nor searched: done in SQL over every file, a
 * search would tell it about files its teams hide.
 */
const CONTENTS_FOR_ALL = {
  fileCount: { type: "number", computed: { sql: "(select count(*) from file fc where fc.file_folder_id = ??)", columns: ["id"] } },
  firstFileThumbnail: { type: "string", computed: { sql: "(select ft.thumbnail_key from file ft where ft.file_folder_id = ?? order by ft.name, ft.id limit 1)", columns: ["id"] } },
} as const;
const CONTENTS_PER_CALLER = {
  fileCount: { type: "number", computed: { sql: "0", columns: [] }, completedAfterQuery: true },
  firstFileThumbnail: { type: "string", computed: { sql: "null", columns: [] }, completedAfterQuery: true },
} as const;

const folderResource = (contents: typeof CONTENTS_FOR_ALL | typeof CONTENTS_PER_CALLER): ResourceRegistry => defineResource({
  table: "file_folder",
  alias: "f",
  idColumn: "id",
  tenantColumn: "customer_id",
  defaultSort: ["name,asc"],
  fields: {
    id: { type: "id", sqlType: "uuid" },
    name: { type: "string", index: ["trgm", "btree"] },
    customerId: { type: "number", sqlType: "bigint", column: "customer_id" },
    fileFolderType: { type: "number", sqlType: "integer" },
    syncType: { type: "string" },
    isRootSyncedFolder: { type: "boolean" },
    // "isSyncedAlphaFolder, ... | boolean": false, not null (a missing key), when the folder is not synced.
    isSyncedAlphaFolder: { type: "boolean", computed: { sql: "coalesce(?? = 'alpha', false)", columns: ["sync_source"] } },
    isSyncedBetaFolder: { type: "boolean", computed: { sql: "coalesce(?? = 'beta', false)", columns: ["sync_source"] } },
    isSyncedGammaFolder: { type: "boolean", computed: { sql: "coalesce(?? = 'gamma', false)", columns: ["sync_source"] } },
    alphaCredentialId: { type: "string" },
    betaTenantId: { type: "string" },
    gammaCredentialId: { type: "string" },
    autoSync: { type: "boolean" },
    lastSync: { type: "timestamp", storage: "epochMs" },
    lastChange: { type: "timestamp", storage: "epochMs" },
    lastError: { type: "timestamp", storage: "epochMs" },
    nextRefreshTime: { type: "timestamp", storage: "epochMs" },
    syncErrorCounter: { type: "number", sqlType: "integer" },
    cleanupOutdatedFiles: { type: "boolean" },
    quickFilterId: { type: "id", sqlType: "text" },
    createDate: { type: "timestamp", column: "created_date" },
    ...contents,
    // Per caller (team hook, role): filled in by the list, so neither sortable nor searchable.
    readOnly: { type: "boolean", computed: { sql: "false", columns: [] }, completedAfterQuery: true },
    alphaDriveFolderDetails: { type: "json", computed: { sql: "case when ?? = 'alpha' then ?? end", columns: ["sync_source", "sync_settings"] } },
    betaDriveFolderDetails: { type: "json", computed: { sql: "case when ?? = 'beta' then ?? end", columns: ["sync_source", "sync_settings"] } },
    gammaFolderDetails: { type: "json", computed: { sql: "case when ?? = 'gamma' then ?? end", columns: ["sync_source", "sync_settings"] } },
    // Usage of the folder by channels, schedules, sub-channels and content: answered by core later; empty until then.
    usageDetails: { type: "json", computed: { sql: "json_build_object('contentUsage', json_build_array())", columns: [] } },
    campaignUsageDetails: { type: "json", computed: EMPTY_OBJECT },
    topLevelCampaignUsageDetails: { type: "json", computed: EMPTY_OBJECT },
    messageUsageDetails: { type: "json", computed: EMPTY_OBJECT },
  },
  folder: { parentField: "parentId", pathField: "fileFolderPath", parentColumn: "parent_id", pathColumn: "path", idType: "uuid" },
  teams: { table: "team_assignment", teamIdType: "uuid" },
});

export const fileFolderResource = folderResource(CONTENTS_FOR_ALL);
export const teamRestrictedFolderResource = folderResource(CONTENTS_PER_CALLER);

/**
 * What `*` (or no select) renders besides the stored columns: the folder's documented plain
 * fields that are derived here (the sync source flags, firstFileThumbnail). "fileCount |
 * computed" and readOnly (includeReadOnlyInfo) only when named: "computed and select-only
 * fields must be named explicitly".
 */
export const FOLDER_DEFAULT_EXTRAS = ["isSyncedAlphaFolder", "isSyncedBetaFolder", "isSyncedGammaFolder", "firstFileThumbnail"];

/** A single-folder response (create, move target, breadcrumb) has no select and renders the whole folder. */
export const FOLDER_SINGLE_SELECT = "*,fileCount,readOnly,teamAssignments(readOnly,team(id,name))";
