// A `custom_app` row as the repository reads it.
import type { JsonObject } from "@bufbuild/protobuf";

export interface CustomAppRow {
  id: string | number;
  customer_id: string | number;
  name: string;
  description: string | null;
  type: "WIDGET" | "HTML_BUNDLE";
  widget_category: string;
  ownership_type: string;
  enabled: boolean;
  repository_updates: boolean;
  app_id: string | null;
  version: string | null;
  size_bytes: string | number | null;
  revision: number;
  package_key: string | null;
  app_root_path: string | null;
  entry_point: string | null;
  icon_path: string | null;
  config: JsonObject | null;
  resource_list: string[] | null;
  created_date: Date;
  last_updated: Date;
}
