// A `file` row as stored (migration 20261122000100_files).
export interface FileRow {
  id: string;
  customer_id: string | number;
  name: string;
  content_type: string;
  type: string;
  size: string | number;
  width: number | null;
  height: number | null;
  crc_check_sum: string | null;
  file_folder_id: string;
  path: string[];
  tags: string[];
  meta_data: Record<string, unknown> | null;
  valid_from: string | number | null;
  valid_to: string | number | null;
  muted: boolean;
  file_mutability_type: string | null;
  preview_path: string | null;
  last_preview_upload_time: string | number | null;
  creator_user_id: string | null;
  creator_email: string | null;
  creator_name: string | null;
  storage_key: string | null;
  thumbnail_key: string | null;
  is_alpha_file: boolean;
  is_beta_file: boolean;
  /** Generated from width and height. */
  orientation: string | null;
  create_date: Date;
  update_date: Date;
}
