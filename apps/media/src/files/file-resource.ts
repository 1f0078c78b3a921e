// The file list's fields (document 1 "File"; filters `fileFolderId` (direct),
// `fileFolderPath` (recursive, `:`), `teamAssignments.team.id`, `type`, `name`).
// Placeholder computed fields (readOnly, location, thumbnail) are completed per
// caller after the query (file-list.ts).
import { defineResource, type ResourceRegistry } from "@signage/query";
import { FILE_KINDS } from "@signage/runtime";

/** "Internal structure of the *Details objects: not shown": usage comes from core later; empty until then. */
const EMPTY_USAGE = { sql: "json_build_object('contentUsage', json_build_array())", columns: [] };
const EMPTY_OBJECT = { sql: "json_build_object()", columns: [] };

/**
 * "duplicateDetails: files with the same checksum (select-only)", same tenant, of those the caller
 * sees (document 2, "User": "restricted = sees only team-assigned resources"). With full team access:
 * every such file, in SQL (searchable with =NULL / =!NULL, nested counts). A team-restricted caller
 * lists through `teamRestrictedFileResource`, where it is filled in after the query over the files its
 * teams show (duplicates.ts) and cannot be searched: in SQL over every file, a search would tell it
 * about files its teams hide.
 */
const DUPLICATES_FOR_ALL = {
  type: "json",
  computed: {
    sql: `(select json_build_object('count', count(*), 'files', coalesce(json_agg(json_build_object('id', d.id, 'name', d.name, 'fileFolderId', d.file_folder_id) order by d.id), '[]'::json))
           from file d where d.customer_id = ?? and d.crc_check_sum = ?? and d.id <> ??)`,
    columns: ["customer_id", "crc_check_sum", "id"],
  },
} as const;
const DUPLICATES_PER_CALLER = { type: "json", computed: { sql: "json_build_object()", columns: [] }, completedAfterQuery: true } as const;

const filesResource = (duplicateDetails: typeof DUPLICATES_FOR_ALL | typeof DUPLICATES_PER_CALLER): ResourceRegistry => defineResource({
  table: "file",
  alias: "file",
  idColumn: "id",
  tenantColumn: "customer_id",
  defaultSort: ["name,asc"],
  fields: {
    id: { type: "id", sqlType: "uuid" },
    name: { type: "string", index: ["trgm", "btree"] },
    contentType: { type: "string" },
    // An enum to the filter language: `type=BOGUS` is a 400 naming the kinds, not an empty page.
    type: { type: "enum", values: FILE_KINDS, index: "btree" },
    size: { type: "number", sqlType: "bigint" },
    width: { type: "number", sqlType: "integer" },
    height: { type: "number", sqlType: "integer" },
    createDate: { type: "timestamp" },
    updateDate: { type: "timestamp" },
    creatorEmail: { type: "string" },
    customerId: { type: "number", sqlType: "bigint" },
    previewPath: { type: "string" },
    crcCheckSum: { type: "string" },
    validFrom: { type: "timestamp", storage: "epochMs" },
    validTo: { type: "timestamp", storage: "epochMs" },
    fileMutabilityType: { type: "string" },
    tags: { type: "stringArray", index: "gin" },
    metaData: { type: "json" },
    muted: { type: "boolean" },
    lastPreviewUploadTime: { type: "timestamp", storage: "epochMs" },
    // "orientation ... (computed)": a generated column, but like every computed field rendered only when named in select.
    orientation: { type: "string", computed: { sql: "??", columns: ["orientation"] } },
    isAlphaFile: { type: "boolean" },
    isBetaFile: { type: "boolean" },
    alphaDriveFileDetails: { type: "json", selectOnly: true },
    betaDriveFileDetails: { type: "json", selectOnly: true },
    // Sortable by its fields ("nested fields allowed"): sort=creator.email,asc; "has `email` and `name`",
    // so any other key (creator.bogus) is an unknown sort field, not a sort on NULL.
    creator: { type: "json", sortable: true, sortKeys: ["email", "name"], computed: { sql: "json_build_object('email', ??, 'name', ??)", columns: ["creator_email", "creator_name"] } },
    // Blob keys here; turned into download URLs per request (file-list.ts). `location` carries the
    // file's name with its key (the download's Content-Disposition file name): LOCATION_SOURCE.
    // Signed URLs made after the query: nothing search or sort could compare.
    location: { type: "string", computed: { sql: "case when ?? is null then null else json_build_array(??, ??)::text end", columns: ["storage_key", "storage_key", "name"] }, completedAfterQuery: true },
    thumbnail: { type: "string", computed: { sql: "??", columns: ["thumbnail_key"] }, completedAfterQuery: true },
    // Per caller (team hook, role): filled in by the list, so neither sortable nor searchable.
    readOnly: { type: "boolean", computed: { sql: "false", columns: [] }, completedAfterQuery: true },
    duplicateDetails,
    usageDetails: { type: "json", computed: EMPTY_USAGE },
    campaignUsageDetails: { type: "json", computed: EMPTY_OBJECT },
    topLevelCampaignUsageDetails: { type: "json", computed: EMPTY_OBJECT },
    messageUsageDetails: { type: "json", computed: EMPTY_OBJECT },
  },
  folder: { parentField: "fileFolderId", pathField: "fileFolderPath", parentColumn: "file_folder_id", pathColumn: "path", idType: "uuid" },
  // media's team_assignment table (teams work, migration 20261122000200): `teamAssignments.team.id`, selectTeamIds.
  teams: { table: "team_assignment", teamIdType: "uuid" },
});

export const fileResource = filesResource(DUPLICATES_FOR_ALL);
export const teamRestrictedFileResource = filesResource(DUPLICATES_PER_CALLER);

/**
 * `*` (or no select) renders the stored primitive fields only: "`*` = all primitive fields (not
 * computed or relations) ... computed and select-only fields must be named explicitly". A
 * single-file response (upload, update) has no select and renders the whole file: these too.
 */
export const FILE_SINGLE_SELECT = "*,creator,readOnly,location,thumbnail,orientation,teamAssignments(readOnly,team(id,name))";

/** What the `location` SQL yields (a JSON `[storage_key, name]`): the blob key and the name to download it under. */
export function locationSource(value: string): { key: string; name: string | undefined } {
  const [key, name] = JSON.parse(value) as [string, string | null];
  return { key, name: name ?? undefined };
}
