import type { JsonValue } from "@bufbuild/protobuf";

/** A `customer` row as knex returns it (int8 parsed as number, timestamps as Date). */
export interface CustomerRow {
  id: number;
  name: string;
  comment: string | null;
  country: string | null;
  location: string | null;
  type: string | null;
  vertical: string | null;
  created_date: Date;
  expiration_date: Date | null;
  restricted: boolean;
  force_2fa: boolean;
  needs_to_be_invoiced: boolean;
  license_tier: string;
  resource_limits: { overrides?: Record<string, number> } | null;
  free_licenses: number;
  browser_session_licenses: number;
  device_session_limit: number;
  storage_size: number | null;
  owner_subreseller_id: number | null;
  subreseller_since: Date | null;
  hidden_ui_element_rules: JsonValue | null;
  customer_metadata: JsonValue | null;
  user_full_access_if_not_in_team: boolean;
  access_resources_without_team: boolean;
  device_creation_in_root_for_team_users: boolean;
  content_creation_in_root_for_team_users: boolean;
  file_creation_in_root_for_team_users: boolean;
  default_emergency_content_id: string | null;
  platform: boolean;
  branding_guideline: JsonValue | null;
}

/** Computed columns the customer queries add. */
export interface CustomerComputed {
  owner_subreseller_name?: string | null;
  owned_customer_count?: number | null;
}
