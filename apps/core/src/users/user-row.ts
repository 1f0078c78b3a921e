import type { AssignmentJson } from "../teams/assignments-json.js";

/** An `app_user` row joined with the few customer fields the User message embeds. */
export interface UserRow {
  id: string;
  email: string;
  customer_id: number;
  name: string | null;
  role: string;
  password_hash: string | null;
  auth_provider: string;
  editor_level: string | null;
  language: string | null;
  comment: string | null;
  address: string | null;
  read_only: boolean;
  restricted: boolean;
  use_2fa: boolean;
  totp_secret: string | null;
  pending_totp_secret: string | null;
  force_to_set_2fa: boolean;
  sso_login_enabled: boolean;
  username_password_login_enabled: boolean;
  magic_code_login_enabled: boolean;
  oauth_password_flow_enabled: boolean;
  trusted_admin: boolean;
  last_login: Date | null;
  last_activity: Date | null;
  created_date: Date;
  ui_profile_id: number | null;
  ui_profile_name?: string | null;
  // joined
  customer_name: string;
  customer_expiration_date: Date | null;
  customer_force_2fa: boolean;
  customer_restricted: boolean;
  customer_network_owner: boolean;
  has_profile_picture: boolean;
  /** `teamAssignments(readOnly,team(id,name))` of the user (teams/assignments-json.ts). */
  team_assignments?: AssignmentJson[] | null;
}
