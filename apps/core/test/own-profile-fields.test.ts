// Plain unit test of the self-update rule: "Users: create, update another user, delete another
// user | OWNER" — a user below OWNER editing itself may change its profile fields only.
import { create, ScalarType } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { UserFieldsSchema, type UserFields } from "@signage/contracts/signage/core/v1/user_pb";
import { checkOwnProfileFields, OWN_PROFILE_FIELDS } from "../src/users/user-rules.js";
import type { UserRow } from "../src/users/user-row.js";
import { userToMessage } from "../src/users/user-mapper.js";

const me: UserRow = {
  id: "00000000-0000-0000-0000-000000000001",
  email: "editor@example.test",
  customer_id: 7,
  name: "Ed",
  role: "EDITOR",
  password_hash: null,
  auth_provider: "LOCAL",
  editor_level: "BASIC",
  language: "en",
  comment: null,
  address: null,
  read_only: false,
  restricted: false,
  use_2fa: false,
  totp_secret: null,
  pending_totp_secret: null,
  force_to_set_2fa: false,
  sso_login_enabled: false,
  username_password_login_enabled: true,
  magic_code_login_enabled: false,
  oauth_password_flow_enabled: true,
  trusted_admin: false,
  last_login: null,
  last_activity: null,
  created_date: new Date(0),
  ui_profile_id: null,
  customer_name: "Acme",
  customer_expiration_date: null,
  customer_force_2fa: true,
  customer_restricted: false,
  customer_network_owner: false,
  has_profile_picture: false,
};

/** A value `me` does not hold for the field: a flipped bool, an unknown enum number, another string. */
function differentValue(field: (typeof UserFieldsSchema.fields)[number]): unknown {
  if (field.fieldKind === "enum") return 99;
  if (field.fieldKind === "scalar" && field.scalar === ScalarType.BOOL) {
    const rendered = (userToMessage(me) as unknown as Record<string, unknown>)[field.localName];
    return rendered !== true;
  }
  return "something-else";
}

describe("checkOwnProfileFields", () => {
  it("lets the profile fields change", () => {
    const fields = create(UserFieldsSchema, { email: "new@example.test", name: "New", language: "de", comment: "c", address: "a" });
    expect(() => checkOwnProfileFields(fields, me)).not.toThrow();
  });

  it("refuses a change to every other UserFields field, including ones added after the rule was written", () => {
    const guarded = UserFieldsSchema.fields.filter((f) => !OWN_PROFILE_FIELDS.has(f.jsonName));
    expect(guarded.length).toBeGreaterThan(10);
    for (const field of guarded) {
      const fields = create(UserFieldsSchema, { [field.localName]: differentValue(field) } as Partial<UserFields>);
      let refused: unknown;
      try {
        checkOwnProfileFields(fields, me);
      } catch (error) {
        refused = error;
      }
      expect(refused, field.jsonName).toBeInstanceOf(ConnectError);
      expect((refused as ConnectError).message).toContain(field.jsonName);
    }
  });

  it("accepts a guarded field repeating its rendered value (forceToSet2FA true under the customer's force2FA)", () => {
    const fields = create(UserFieldsSchema, { forceToSet2fa: true, readOnly: false, usernamePasswordLoginEnabled: true });
    expect(() => checkOwnProfileFields(fields, me)).not.toThrow();
  });
});
