import type { FieldSpec, IdSqlType } from "./field-spec.js";
import { snakeCase } from "./naming.js";

export interface FolderOptions {
  /** Direct parent field: `deviceGroupId`, `contentGroupId`, `fileFolderId`, or `parentId` on folders. */
  readonly parentField: string;
  /** Recursive path field: `deviceGroupPath`, `contentGroupPath`, `fileFolderPath`. */
  readonly pathField: string;
  readonly parentColumn?: string;
  /**
   * Array column of ancestor folder ids, root first. Items: ids of every folder from the root
   * down to the item's own folder; folders: from the root down to the folder itself.
   * The service maintains it on create and move; it gets a GIN index.
   */
  readonly pathColumn?: string;
  readonly idType?: IdSqlType;
}

/**
 * The two documented folder filters: direct `{parentField}=<id>` (roots: `parentId=NULL`) and
 * recursive `{pathField}:<id>` ("in <id> or any folder below it").
 */
export function folderFields(options: FolderOptions): Record<string, FieldSpec> {
  return {
    [options.parentField]: {
      type: "id",
      sqlType: options.idType,
      column: options.parentColumn ?? snakeCase(options.parentField),
      index: "btree",
    },
    [options.pathField]: {
      type: "folderPath",
      sqlType: options.idType,
      column: options.pathColumn ?? snakeCase(options.pathField),
      index: "gin",
    },
  };
}
