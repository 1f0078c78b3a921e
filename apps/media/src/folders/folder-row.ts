// A file_folder row as stored (see the two media migrations).
export interface FolderRow {
  id: string;
  customer_id: string | number;
  name: string | null;
  parent_id: string | null;
  /** Ancestor ids from the root down to the folder itself. */
  path: string[];
  file_folder_type: number;
  sync_type: string;
  sync_source: string | null;
  cleanup_outdated_files: boolean;
  quick_filter_id: string | null;
  auto_sync: boolean | null;
  /** The teams holding the folder (libs/runtime teams keeps it with its team_assignment rows). */
  team_ids?: string[];
}

/** 1 = stored (regular or synced), 2 = filtered (virtual). */
export const FOLDER_TYPE_STORED = 1;
export const FOLDER_TYPE_FILTERED = 2;
