// What a quick filter may say about each filtered entity type, in one place:
// the criteria keys (document 2 "Quick filter": "type, search, folderId /
// groupId / deviceGroupId, searchRecursively (bool), name, tags (array); FILE
// adds validFileOnly, isUndefinedValidityValid") and the list fields its
// compiled filter (and `criteria.search`) may use. The lists that accept
// `quickFilterId` (files, content, devices) must publish these field names.
import { defineResource, type ResourceRegistry } from "@signage/query";
import { FILE_KINDS } from "../files/file-kinds.js";

export const FILTERED_ENTITY_TYPES = ["FILE", "CONTENT", "DEVICE"] as const;
export type FilteredEntityTypeName = (typeof FILTERED_ENTITY_TYPES)[number];

export type CriterionKind = "string" | "stringOrStrings" | "boolean" | "tags";

export interface EntityTypeRules {
  /** Allowed criteria keys and their JSON kinds. */
  criteria: Readonly<Record<string, CriterionKind>>;
  /** The folder criterion (`folderId` / `groupId` / `deviceGroupId`) and the list fields it compiles to. */
  folder: { criterion: string; directField: string; recursiveField: string };
  /** The list's fields, for checking `criteria.search` (never queried). */
  fields: ResourceRegistry;
}

const COMMON: Record<string, CriterionKind> = {
  type: "stringOrStrings",
  search: "string",
  searchRecursively: "boolean",
  name: "string",
  tags: "tags",
};

const teams = (table: string) => ({ table });

// Document 1 "File" and the file list filters.
const fileFields = defineResource({
  name: "file",
  table: "quick_filter_target_file",
  tenantColumn: "customer_id",
  fields: {
    id: { type: "id", sqlType: "uuid" },
    name: { type: "string" },
    type: { type: "enum", values: FILE_KINDS },
    contentType: { type: "string" },
    size: { type: "number", sqlType: "bigint" },
    width: { type: "number", sqlType: "integer" },
    height: { type: "number", sqlType: "integer" },
    createDate: { type: "timestamp" },
    updateDate: { type: "timestamp" },
    creatorEmail: { type: "string" },
    previewPath: { type: "string" },
    lastPreviewUploadTime: { type: "timestamp" },
    metaData: { type: "json" },
    customerId: { type: "number", sqlType: "bigint" },
    crcCheckSum: { type: "string" },
    validFrom: { type: "timestamp" },
    validTo: { type: "timestamp" },
    fileMutabilityType: { type: "string" },
    tags: { type: "stringArray" },
    muted: { type: "boolean" },
    orientation: { type: "string" },
    isAlphaFile: { type: "boolean" },
    isBetaFile: { type: "boolean" },
  },
  folder: { parentField: "fileFolderId", pathField: "fileFolderPath", idType: "uuid" },
  teams: teams("quick_filter_target_file_team"),
});

// Document 2 "Content (slides, interactive content) and playlists".
const contentFields = defineResource({
  name: "content",
  table: "quick_filter_target_content",
  tenantColumn: "customer_id",
  fields: {
    id: { type: "id", sqlType: "uuid" },
    name: { type: "string" },
    comment: { type: "string" },
    type: { type: "string" },
    structureType: { type: "enum", values: ["SLIDE", "COMPLEX"] },
    simpleLoopType: { type: "enum", values: ["NORMAL", "EINK"] },
    deviceContentType: { type: "enum", values: ["simpleLoop", "content"] },
    version: { type: "string" },
    locked: { type: "boolean" },
    lastSaved: { type: "timestamp" },
    orientation: { type: "string" },
    customerId: { type: "number", sqlType: "bigint" },
    tags: { type: "stringArray" },
  },
  folder: { parentField: "contentGroupId", pathField: "contentGroupPath", idType: "uuid" },
  teams: teams("quick_filter_target_content_team"),
});

// Document 2 "Device".
const deviceFields = defineResource({
  name: "device",
  table: "quick_filter_target_device",
  tenantColumn: "customer_id",
  fields: {
    id: { type: "id", sqlType: "uuid" },
    name: { type: "string" },
    comment: { type: "string" },
    serial: { type: "string" },
    version: { type: "string" },
    firmwareVersion: { type: "string" },
    localIpAddress: { type: "string" },
    deviceStatus: { type: "enum", values: ["ONLINE", "OFFLINE"] },
    lastDeviceStatusChange: { type: "timestamp" },
    lastActivity: { type: "timestamp" },
    emergencyStatus: { type: "boolean" },
    type: { type: "enum", values: ["TABLET", "PHONE", "SCREEN", "DESKTOP", "EINK", "PWA"] },
    platform: { type: "string" },
    nativeResolutionWidth: { type: "number", sqlType: "integer" },
    nativeResolutionHeight: { type: "number", sqlType: "integer" },
    nativeOrientation: { type: "string" },
    webViewOrientation: { type: "string" },
    licenseStatus: { type: "enum", values: ["UN_LICENSED", "FREE", "LICENSED", "TRIAL"] },
    licenseOrderId: { type: "number", sqlType: "bigint" },
    licenseType: { type: "enum", values: ["BASIC", "PROFESSIONAL", "ENTERPRISE", "VIDEO_WALL", "DBA"] },
    timeZone: { type: "string" },
    customerId: { type: "number", sqlType: "bigint" },
    tags: { type: "stringArray" },
  },
  folder: { parentField: "deviceGroupId", pathField: "deviceGroupPath", idType: "uuid" },
  teams: teams("quick_filter_target_device_team"),
});

export const ENTITY_TYPE_RULES: Readonly<Record<FilteredEntityTypeName, EntityTypeRules>> = {
  FILE: {
    criteria: { ...COMMON, folderId: "string", validFileOnly: "boolean", isUndefinedValidityValid: "boolean" },
    folder: { criterion: "folderId", directField: "fileFolderId", recursiveField: "fileFolderPath" },
    fields: fileFields,
  },
  CONTENT: {
    criteria: { ...COMMON, groupId: "string" },
    folder: { criterion: "groupId", directField: "contentGroupId", recursiveField: "contentGroupPath" },
    fields: contentFields,
  },
  DEVICE: {
    criteria: { ...COMMON, deviceGroupId: "string" },
    folder: { criterion: "deviceGroupId", directField: "deviceGroupId", recursiveField: "deviceGroupPath" },
    fields: deviceFields,
  },
};

export function isFilteredEntityType(value: unknown): value is FilteredEntityTypeName {
  return typeof value === "string" && (FILTERED_ENTITY_TYPES as readonly string[]).includes(value);
}
