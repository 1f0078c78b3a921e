// The rest of core's direct RPC surface (teams, team assignments, tags, quick filters, UI
// profiles, AuthService) as internal gRPC/Connect callers reach it, without the REST edge's
// checks: int64 ids beyond 1..2^53-1, enum numbers the contract does not define, text PostgreSQL
// cannot index, roles below a method's min_role and other tenants' ids. Each is a 400/403/404
// with the resource's key, never a 500, and nothing is written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { readErrorDetail } from "@signage/auth";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { AuthService } from "@signage/contracts/signage/core/v1/auth_pb";
import { CustomerService } from "@signage/contracts/signage/core/v1/customer_pb";
import { FilteredEntityType, QuickFilterService } from "@signage/contracts/signage/core/v1/quick_filter_pb";
import { TagService, TagType } from "@signage/contracts/signage/core/v1/tag_pb";
import { TeamService } from "@signage/contracts/signage/core/v1/team_pb";
import { UserInterfaceProfileService } from "@signage/contracts/signage/core/v1/ui_profile_pb";
import { UserService } from "@signage/contracts/signage/core/v1/user_pb";
import { ADMIN, startCore, type CoreHarness } from "./support.js";

let core: CoreHarness;
let adminToken: string;
let customerA: bigint;
const tokens: Record<"ownerA" | "editorA" | "viewerA" | "ownerB", string> = { ownerA: "", editorA: "", viewerA: "", ownerB: "" };

beforeAll(async () => {
  core = await startCore();
  adminToken = await core.login(ADMIN.email, ADMIN.password);
  const customers = core.as(CustomerService, adminToken);
  const users = core.as(UserService, adminToken);
  customerA = (await customers.createCustomer({ customer: { name: "Direct Core A" } })).customer!.id;
  const customerB = (await customers.createCustomer({ customer: { name: "Direct Core B" } })).customer!.id;
  for (const [customerId, name, role] of [
    [customerA, "ownerA", Role.OWNER],
    [customerA, "editorA", Role.EDITOR],
    [customerA, "viewerA", Role.VIEWER],
    [customerB, "ownerB", Role.OWNER],
  ] as const) {
    await users.createUser({ customerId, user: { email: `${name}@direct-core.test`, role, password: "password-1" } });
    tokens[name] = await core.login(`${name}@direct-core.test`, "password-1");
  }
});
afterAll(() => core.close());

async function failure(p: Promise<unknown>) {
  const err = await p.then(() => undefined, (e) => ConnectError.from(e));
  if (!err) throw new Error("expected a failure");
  const detail = readErrorDetail(err);
  return { code: err.code, key: detail?.key, details: detail?.details };
}
const codeAndKey = async (p: Promise<unknown>) => {
  const { code, key } = await failure(p);
  return { code, key };
};

const OUT_OF_RANGE = [2n ** 63n - 1n, -(2n ** 63n), 2n ** 53n + 1n, 0n, -5n];

describe("UI profile ids out of range", () => {
  let ui: Client<typeof UserInterfaceProfileService>;
  let profileId: bigint;
  beforeAll(async () => {
    ui = core.as(UserInterfaceProfileService, tokens.ownerA);
    profileId = (await ui.createUserInterfaceProfile({ profile: { name: "Direct", hiddenUiElementRules: fromJson(ValueSchema, { a: 1 }) } })).profile!.id;
  });

  it.each(OUT_OF_RANGE)("id %s is 404 userInterfaceProfile.error.notFound naming the id as sent, on update, delete and assign", async (id) => {
    const notFound = { code: Code.NotFound, key: "userInterfaceProfile.error.notFound", details: { id: id.toString() } };
    expect(await failure(ui.updateUserInterfaceProfile({ id, profile: { name: "x" } }))).toEqual(notFound);
    expect(await failure(ui.deleteUserInterfaceProfile({ id }))).toEqual(notFound);
    expect(await failure(ui.assignUserInterfaceProfile({ id, assignUserIds: ["editorA@direct-core.test"] }))).toEqual(notFound);
    expect(await core.knex("ui_profile").where({ id: Number(profileId) }).first("name")).toEqual({ name: "Direct" });
    expect(await core.knex("app_user").whereNotNull("ui_profile_id").count({ n: "*" })).toEqual([{ n: 0 }]);
  });

  it("2^53+1 never reaches the row at 2^53 that Number() would round it to", async () => {
    const rounded = (2n ** 53n).toString();
    await core.knex.raw("insert into ui_profile (id, customer_id, name, hidden_ui_element_rules) values (?::bigint, ?, 'Rounded', '{}')", [rounded, Number(customerA)]);
    try {
      const id = 2n ** 53n + 1n;
      expect(await codeAndKey(ui.updateUserInterfaceProfile({ id, profile: { name: "x" } }))).toEqual({ code: Code.NotFound, key: "userInterfaceProfile.error.notFound" });
      expect(await codeAndKey(ui.deleteUserInterfaceProfile({ id }))).toEqual({ code: Code.NotFound, key: "userInterfaceProfile.error.notFound" });
      expect((await core.knex.raw("select name from ui_profile where id = ?::bigint", [rounded])).rows).toEqual([{ name: "Rounded" }]);
    } finally {
      await core.knex.raw("delete from ui_profile where id = ?::bigint", [rounded]);
    }
  });

  it("another tenant's profile is 404; below OWNER is 403", async () => {
    const ownerB = core.as(UserInterfaceProfileService, tokens.ownerB);
    expect(await codeAndKey(ownerB.updateUserInterfaceProfile({ id: profileId, profile: { name: "x" } }))).toEqual({ code: Code.NotFound, key: "userInterfaceProfile.error.notFound" });
    expect(await codeAndKey(ownerB.deleteUserInterfaceProfile({ id: profileId }))).toEqual({ code: Code.NotFound, key: "userInterfaceProfile.error.notFound" });
    expect(await codeAndKey(core.as(UserInterfaceProfileService, tokens.editorA).deleteUserInterfaceProfile({ id: profileId }))).toEqual({ code: Code.PermissionDenied, key: "auth.error.forbidden" });
  });
});

describe("AuthService.CreateApiClient", () => {
  const auth = () => core.as(AuthService, adminToken);
  const clientCount = async () => Number((await core.knex("api_client").count({ n: "*" }))[0].n);

  it.each(OUT_OF_RANGE)("customerId %s is 404 customer.error.notFound, nothing written", async (customerId) => {
    const before = await clientCount();
    expect(await codeAndKey(auth().createApiClient({ customerId, name: "ci", role: "VIEWER" }))).toEqual({ code: Code.NotFound, key: "customer.error.notFound" });
    expect(await clientCount()).toBe(before);
  });

  it("2^53+1 never reaches the customer at 2^53 that Number() would round it to", async () => {
    const rounded = (2n ** 53n).toString();
    await core.knex.raw("insert into customer (id, name) values (?::bigint, 'Rounded customer')", [rounded]);
    try {
      const before = await clientCount();
      expect(await codeAndKey(auth().createApiClient({ customerId: 2n ** 53n + 1n, name: "ci", role: "VIEWER" }))).toEqual({ code: Code.NotFound, key: "customer.error.notFound" });
      expect(await clientCount()).toBe(before);
    } finally {
      await core.knex.raw("delete from customer where id = ?::bigint", [rounded]);
    }
  });

  it("a name over 255 characters is 400 oauth.error.name_too_long; 255 is fine", async () => {
    const before = await clientCount();
    expect(await codeAndKey(auth().createApiClient({ customerId: customerA, name: "n".repeat(256), role: "VIEWER" }))).toEqual({ code: Code.InvalidArgument, key: "oauth.error.name_too_long" });
    expect(await codeAndKey(auth().createApiClient({ customerId: customerA, name: "   ", role: "VIEWER" }))).toEqual({ code: Code.InvalidArgument, key: "oauth.error.name_required" });
    expect(await clientCount()).toBe(before);
    await auth().createApiClient({ customerId: customerA, name: "n".repeat(255), role: "VIEWER" });
    expect(await clientCount()).toBe(before + 1);
  });

  it("below ADMIN is 403", async () => {
    expect(await codeAndKey(core.as(AuthService, tokens.ownerA).createApiClient({ customerId: customerA, name: "ci", role: "VIEWER" }))).toEqual({ code: Code.PermissionDenied, key: "auth.error.forbidden" });
  });
});

describe("quick filter fields a gRPC caller can send", () => {
  const DEVICE = FilteredEntityType.DEVICE;

  it("an undefined filteredEntityType number is 400 quickFilter.error.invalidEntityType on create and update, not dropped", async () => {
    const qf = core.as(QuickFilterService, tokens.editorA);
    const invalid = { code: Code.InvalidArgument, key: "quickFilter.error.invalidEntityType" };
    expect(await codeAndKey(qf.createQuickFilter({ quickFilter: { name: "Type 999", filteredEntityType: 999 as FilteredEntityType, criteria: {} } }))).toEqual(invalid);
    const { quickFilter } = await qf.createQuickFilter({ quickFilter: { name: "Devices", filteredEntityType: DEVICE, criteria: {} } });
    expect(await codeAndKey(qf.updateQuickFilter({ quickFilterId: quickFilter!.id, quickFilter: { name: "Renamed", filteredEntityType: 999 as FilteredEntityType } }))).toEqual(invalid);
    expect(await core.knex("quick_filter").where({ id: quickFilter!.id }).first("name", "filtered_entity_type")).toEqual({ name: "Devices", filtered_entity_type: "DEVICE" });
    // Absent (UNSPECIFIED) still means "not changed".
    expect((await qf.updateQuickFilter({ quickFilterId: quickFilter!.id, quickFilter: { name: "Renamed", filteredEntityType: FilteredEntityType.UNSPECIFIED } })).quickFilter).toMatchObject({ name: "Renamed", filteredEntityType: DEVICE });
    expect(await codeAndKey(qf.createQuickFilter({ quickFilter: { name: "No type", criteria: {} } }))).toEqual({ code: Code.InvalidArgument, key: "quickFilter.error.entityTypeRequired" });
  });

  it("malformed and other tenants' ids are 404; below EDITOR is 403", async () => {
    const { quickFilter } = await core.as(QuickFilterService, tokens.editorA).createQuickFilter({ quickFilter: { name: "Mine", filteredEntityType: DEVICE, criteria: {} } });
    const ownerB = core.as(QuickFilterService, tokens.ownerB);
    const notFound = { code: Code.NotFound, key: "quickFilter.error.notFound" };
    expect(await codeAndKey(core.as(QuickFilterService, tokens.editorA).getQuickFilter({ id: "not-a-uuid" }))).toEqual(notFound);
    expect(await codeAndKey(ownerB.getQuickFilter({ id: quickFilter!.id }))).toEqual(notFound);
    expect(await codeAndKey(ownerB.updateQuickFilter({ quickFilterId: quickFilter!.id, quickFilter: { name: "x" } }))).toEqual(notFound);
    expect(await codeAndKey(ownerB.deleteQuickFilter({ quickFilterId: quickFilter!.id }))).toEqual(notFound);
    expect(await codeAndKey(ownerB.compileQuickFilter({ quickFilterId: quickFilter!.id, expectedEntityType: DEVICE }))).toEqual(notFound);
    expect(await codeAndKey(core.as(QuickFilterService, tokens.viewerA).createQuickFilter({ quickFilter: { name: "V", filteredEntityType: DEVICE, criteria: {} } }))).toEqual({ code: Code.PermissionDenied, key: "auth.error.forbidden" });
  });
});

describe("tag fields a gRPC caller can send", () => {
  it("a tag within 2048 characters but too many UTF-8 bytes for its index is 400 tag.error.invalidFormat, not a 500", async () => {
    const tags = core.as(TagService, tokens.editorA);
    // 2048 distinct CJK letters: 6144 bytes, beyond PostgreSQL's btree row limit (2704) even compressed.
    const tag = Array.from({ length: 2048 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20000))).join("");
    expect(await codeAndKey(tags.createTag({ tagType: TagType.DEVICE, tag: { tag } }))).toEqual({ code: Code.InvalidArgument, key: "tag.error.invalidFormat" });
    expect(await core.knex("tag_definition").where({ tag }).first()).toBeUndefined();
    // The same count of ASCII letters fits.
    expect((await tags.createTag({ tagType: TagType.DEVICE, tag: { tag: "a".repeat(2048) } })).tag?.tag).toHaveLength(2048);
  });

  it("undefined tag type numbers are 400 tag.error.invalidType; below EDITOR is 403", async () => {
    const tags = core.as(TagService, tokens.editorA);
    const invalid = { code: Code.InvalidArgument, key: "tag.error.invalidType" };
    expect(await codeAndKey(tags.createTag({ tagType: 999 as TagType, tag: { tag: "x" } }))).toEqual(invalid);
    expect(await codeAndKey(tags.updateTag({ tagType: 999 as TagType, tag: "x" }))).toEqual(invalid);
    expect(await codeAndKey(tags.deleteTag({ tagType: 999 as TagType, tag: "x" }))).toEqual(invalid);
    expect(await codeAndKey(tags.suggestTags({ entity: 999 as TagType, keyword: "x" }))).toEqual(invalid);
    expect(await codeAndKey(core.as(TagService, tokens.viewerA).createTag({ tagType: TagType.DEVICE, tag: { tag: "x" } }))).toEqual({ code: Code.PermissionDenied, key: "auth.error.forbidden" });
  });
});

describe("team ids a gRPC caller can send", () => {
  it("malformed and other tenants' team ids are 404 team.error.notFound; below OWNER is 403", async () => {
    const teamsA = core.as(TeamService, tokens.ownerA);
    const teamsB = core.as(TeamService, tokens.ownerB);
    const { team } = await teamsA.createTeam({ team: { name: "Direct team" } });
    const notFound = { code: Code.NotFound, key: "team.error.notFound" };
    expect(await codeAndKey(teamsA.updateTeam({ teamId: "not-a-uuid", team: { name: "x" } }))).toEqual(notFound);
    expect(await codeAndKey(teamsA.deleteTeam({ id: "not-a-uuid" }))).toEqual(notFound);
    expect(await codeAndKey(teamsB.updateTeam({ teamId: team!.id, team: { name: "x" } }))).toEqual(notFound);
    expect(await codeAndKey(teamsB.deleteTeam({ id: team!.id }))).toEqual(notFound);
    expect(await codeAndKey(teamsB.listTeamResourceAssignments({ resourceType: "user", teamId: team!.id }))).toEqual(notFound);
    expect(await codeAndKey(teamsB.updateTeamResourceAssignments({ resourceType: "user", teamId: team!.id, update: {} }))).toEqual(notFound);
    expect((await teamsB.getTeams({ teamIds: [team!.id, "not-a-uuid"] })).teams).toEqual([]);
    expect(await codeAndKey(teamsA.listTeamResourceAssignments({ resourceType: "nope", teamId: team!.id }))).toEqual({ code: Code.InvalidArgument, key: "team.error.unknownResourceType" });
    expect(await codeAndKey(core.as(TeamService, tokens.editorA).createTeam({ team: { name: "e" } }))).toEqual({ code: Code.PermissionDenied, key: "auth.error.forbidden" });
    expect(await core.knex("team").where({ id: team!.id }).first("name")).toEqual({ name: "Direct team" });
  });
});
