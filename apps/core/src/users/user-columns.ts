import { roleName } from "@signage/auth";
import { AuthProvider, EditorLevel, type UserFields } from "@signage/contracts/signage/core/v1/user_pb";

/** The present UserFields as app_user columns (password handled separately: it is hashed). */
export function userColumns(f: UserFields): Record<string, unknown> {
  const cols: Record<string, unknown> = {};
  const put = (column: string, value: unknown) => {
    if (value !== undefined) cols[column] = value;
  };
  put("name", f.name);
  put("role", f.role === undefined ? undefined : roleName(f.role));
  put("editor_level", f.editorLevel === undefined ? undefined : EditorLevel[f.editorLevel]);
  put("language", f.language);
  put("comment", f.comment);
  put("address", f.address);
  put("read_only", f.readOnly);
  put("restricted", f.restricted);
  put("force_to_set_2fa", f.forceToSet2fa);
  put("sso_login_enabled", f.ssoLoginEnabled);
  put("username_password_login_enabled", f.usernamePasswordLoginEnabled);
  put("magic_code_login_enabled", f.magicCodeLoginEnabled);
  put("oauth_password_flow_enabled", f.oauthPasswordFlowEnabled);
  put("trusted_admin", f.trustedAdmin);
  return cols;
}

export function authProviderName(p: AuthProvider | undefined): string {
  return p === undefined || p === AuthProvider.UNSPECIFIED ? "LOCAL" : AuthProvider[p];
}
