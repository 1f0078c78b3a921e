// UI profiles: document 3 "UI profile" and "UI profiles (OWNER; base /api/v2/userInterfaceProfile)".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromJson, toJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { readErrorDetail } from "@signage/auth";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { CustomerService } from "@signage/contracts/signage/core/v1/customer_pb";
import { UserInterfaceProfileService } from "@signage/contracts/signage/core/v1/ui_profile_pb";
import { UserService } from "@signage/contracts/signage/core/v1/user_pb";
import { ADMIN, startCore, type CoreHarness } from "./support.js";

let core: CoreHarness;
let adminToken: string;
let customerA: bigint;
let customerB: bigint;
let ownerA: Client<typeof UserInterfaceProfileService>;
let ownerB: Client<typeof UserInterfaceProfileService>;
let usersA: Client<typeof UserService>;

const rules = (doc: Record<string, unknown>) => fromJson(ValueSchema, doc as never);
const RULES_V1 = { version: "2.1", dashboard: { devices: false }, newUi: { reports: null } };

async function failure(p: Promise<unknown>) {
  const err = await p.then(() => undefined, (e) => ConnectError.from(e));
  if (!err) throw new Error("expected a failure");
  return { code: err.code, key: readErrorDetail(err)?.key };
}

beforeAll(async () => {
  core = await startCore();
  adminToken = await core.login(ADMIN.email, ADMIN.password);
  const customers = core.as(CustomerService, adminToken);
  const users = core.as(UserService, adminToken);
  customerA = (await customers.createCustomer({ customer: { name: "UI A" } })).customer!.id;
  customerB = (await customers.createCustomer({ customer: { name: "UI B" } })).customer!.id;
  for (const [customerId, email, role] of [
    [customerA, "owner@ui-a.test", Role.OWNER],
    [customerA, "editor@ui-a.test", Role.EDITOR],
    [customerA, "viewer@ui-a.test", Role.VIEWER],
    [customerB, "owner@ui-b.test", Role.OWNER],
    [customerB, "editor@ui-b.test", Role.EDITOR],
  ] as const) {
    await users.createUser({ customerId, user: { email, role, password: "password-1" } });
  }
  const tokenA = await core.login("owner@ui-a.test", "password-1");
  ownerA = core.as(UserInterfaceProfileService, tokenA);
  usersA = core.as(UserService, tokenA);
  ownerB = core.as(UserInterfaceProfileService, await core.login("owner@ui-b.test", "password-1"));
});
afterAll(() => core.close());

describe("UI profiles", () => {
  it("'POST (query customerId; body name, hiddenUIElementRules both required)'", async () => {
    expect(await failure(ownerA.createUserInterfaceProfile({ profile: { hiddenUiElementRules: rules(RULES_V1) } }))).toEqual({ code: Code.InvalidArgument, key: "userInterfaceProfile.error.nameRequired" });
    expect(await failure(ownerA.createUserInterfaceProfile({ profile: { name: "No rules" } }))).toEqual({ code: Code.InvalidArgument, key: "userInterfaceProfile.error.rulesRequired" });
    expect((await failure(ownerA.createUserInterfaceProfile({ profile: { name: "List rules", hiddenUiElementRules: fromJson(ValueSchema, [1, 2]) } }))).key).toBe("userInterfaceProfile.error.rulesInvalid");
    const { profile } = await ownerA.createUserInterfaceProfile({ profile: { name: "Kiosk", comment: "front desk", hiddenUiElementRules: rules(RULES_V1) } });
    expect(profile).toMatchObject({ name: "Kiosk", comment: "front desk", customerId: customerA });
    expect(toJson(ValueSchema, profile!.hiddenUiElementRules!)).toEqual(RULES_V1);
    // ADMIN places it with customerId.
    const admin = core.as(UserInterfaceProfileService, adminToken);
    const placed = await admin.createUserInterfaceProfile({ customerId: customerB, profile: { name: "B by admin", hiddenUiElementRules: rules({ version: "2.1" }) } });
    expect(placed.profile?.customerId).toBe(customerB);
  });

  it("'PUT /{id} (body name and/or hiddenUIElementRules; omitting the rules keeps them, sending them replaces the whole document)'", async () => {
    const { profile } = await ownerA.createUserInterfaceProfile({ profile: { name: "Editable", hiddenUiElementRules: rules(RULES_V1) } });
    const renamed = await ownerA.updateUserInterfaceProfile({ id: profile!.id, profile: { name: "Renamed" } });
    expect(renamed.profile?.name).toBe("Renamed");
    expect(toJson(ValueSchema, renamed.profile!.hiddenUiElementRules!)).toEqual(RULES_V1);
    const replacement = { version: "2.1", loopEditor: { advanced: false } };
    const replaced = await ownerA.updateUserInterfaceProfile({ id: profile!.id, profile: { hiddenUiElementRules: rules(replacement) } });
    // Whole document replaced: no merge with the old sections.
    expect(toJson(ValueSchema, replaced.profile!.hiddenUiElementRules!)).toEqual(replacement);
    expect(replaced.profile?.name).toBe("Renamed");
  });

  it("list and search are scoped to the caller's customer; another tenant's profile is not found", async () => {
    const { profile } = await ownerB.createUserInterfaceProfile({ profile: { name: "B only", hiddenUiElementRules: rules({ version: "2.1" }) } });
    const listA = await ownerA.listUserInterfaceProfiles({ query: { size: 100 } });
    expect(listA.content.map((p) => p.name)).not.toContain("B only");
    expect(listA.content.every((p) => p.customerId === customerA)).toBe(true);
    const searched = await ownerA.listUserInterfaceProfiles({ query: { search: "name=Kiosk", select: "name,hiddenUIElementRules" } });
    expect(searched.content).toHaveLength(1);
    expect(toJson(ValueSchema, searched.content[0].hiddenUiElementRules!)).toEqual(RULES_V1);
    expect((await failure(ownerA.updateUserInterfaceProfile({ id: profile!.id, profile: { name: "hijack" } }))).code).toBe(Code.NotFound);
    expect((await failure(ownerA.deleteUserInterfaceProfile({ id: profile!.id }))).code).toBe(Code.NotFound);
    expect((await failure(ownerA.assignUserInterfaceProfile({ id: profile!.id, assignUserIds: ["editor@ui-a.test"] }))).code).toBe(Code.NotFound);
  });

  it("'OWNER': an EDITOR may not manage UI profiles", async () => {
    const editor = core.as(UserInterfaceProfileService, await core.login("editor@ui-a.test", "password-1"));
    expect((await failure(editor.listUserInterfaceProfiles({}))).code).toBe(Code.PermissionDenied);
  });

  it("'POST /{id}/assign body {assignUserIds: [email], removeUserIds: [email]}'; the user shows 'userInterfaceProfile: id, name'; deleting the profile clears it", async () => {
    const { profile } = await ownerA.createUserInterfaceProfile({ profile: { name: "Assigned", hiddenUiElementRules: rules({ version: "2.1" }) } });
    // Users of another customer cannot be named.
    expect(await failure(ownerA.assignUserInterfaceProfile({ id: profile!.id, assignUserIds: ["editor@ui-b.test"] }))).toEqual({ code: Code.InvalidArgument, key: "userInterfaceProfile.error.userNotFound" });
    expect((await failure(ownerA.assignUserInterfaceProfile({ id: profile!.id, assignUserIds: ["x@ui-a.test"], removeUserIds: ["X@ui-a.test"] }))).key).toBe("userInterfaceProfile.error.conflictingUsers");

    await ownerA.assignUserInterfaceProfile({ id: profile!.id, assignUserIds: ["EDITOR@ui-a.test", "viewer@ui-a.test"] });
    const viewer = core.as(UserService, await core.login("viewer@ui-a.test", "password-1"));
    expect((await viewer.getMe({})).user?.userInterfaceProfile).toMatchObject({ id: profile!.id, name: "Assigned" });
    const listed = await usersA.listUsers({ query: { search: "email=editor@ui-a.test" } });
    expect(listed.content[0].email).toBe("editor@ui-a.test");

    await ownerA.assignUserInterfaceProfile({ id: profile!.id, removeUserIds: ["viewer@ui-a.test"] });
    expect((await viewer.getMe({})).user?.userInterfaceProfile).toBeUndefined();
    expect(await core.knex("app_user").where({ email: "editor@ui-a.test" }).first("ui_profile_id")).toEqual({ ui_profile_id: Number(profile!.id) });

    await ownerA.deleteUserInterfaceProfile({ id: profile!.id });
    expect(await core.knex("app_user").where({ email: "editor@ui-a.test" }).first("ui_profile_id")).toEqual({ ui_profile_id: null });
    expect((await failure(ownerA.updateUserInterfaceProfile({ id: profile!.id, profile: { name: "gone" } }))).code).toBe(Code.NotFound);
  });
});
