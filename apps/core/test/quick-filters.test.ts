// Quick filters over HTTP: document 2 "Quick filter" and the quick filter rows
// of "Teams, tags, users, quick filters"; the usage index fed by
// `quickFilter.usage.changed`.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform } from "@signage/testing";
import { quickFilterUsageEvent, type QuickFilterUserType } from "@signage/runtime";
import { coreModule } from "../src/module.js";

let platform: TestPlatform;
let admin: string;
let customerA: number;
let editorA: TenantUser;
let viewerA: TenantUser;
let editorB: TenantUser;

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule], prefix: "core_qf_test" });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  customerA = (await createCustomer(platform.http, admin, { name: "QF A" })).id;
  const customerB = (await createCustomer(platform.http, admin, { name: "QF B" })).id;
  editorA = await createUser(platform.http, admin, customerA, "EDITOR");
  viewerA = await createUser(platform.http, admin, customerA, "VIEWER");
  editorB = await createUser(platform.http, admin, customerB, "EDITOR");
});
afterAll(() => platform?.close());

const create = (token: string, body: Record<string, unknown>) => platform.http.post("/api/quickFilter/", { token, body });
const update = (token: string, id: string, body: Record<string, unknown>) => platform.http.put("/api/quickFilter/", { token, query: { quickFilterId: id }, body });
const remove = (token: string, id: string) => platform.http.delete("/api/quickFilter/", { token, query: { quickFilterId: id } });
const get = (token: string, id: string) => platform.http.get(`/api/quickFilter/${id}`, { token });

let n = 0;
async function made(token: string, filteredEntityType: string, criteria: Record<string, unknown>) {
  const res = await create(token, { name: `filter ${++n}`, filteredEntityType, criteria });
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body as { id: string } & Record<string, any>;
}

async function eventually<T>(read: () => Promise<T>, check: (v: T) => boolean): Promise<T> {
  let value!: T;
  for (let i = 0; i < 100; i++) {
    value = await read();
    if (check(value)) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`condition never held; last: ${JSON.stringify(value)}`);
}

/** Waits until core's usage index holds `version` for the filter (events arrive asynchronously). */
const usageApplied = (quickFilterId: string, version: number) =>
  eventually(
    () => platform.knexOf("core")("quick_filter_usage").where({ quick_filter_id: quickFilterId }).max({ v: "version" }).first(),
    (row) => Number(row?.v) >= version,
  );

const usage = (quickFilterId: string, usedByType: QuickFilterUserType, usedById: string, used: boolean, version: number) =>
  platform.bus.publish(quickFilterUsageEvent({ customerId: customerA, quickFilterId, usedByType, usedById, used, version }));

describe("quick filters: CRUD", () => {
  it("create answers the filter with its documented fields; readOnly is computed (false when unused)", async () => {
    const folderId = randomUUID();
    const criteria = { name: "poster", tags: ["summer"], folderId, searchRecursively: true, validFileOnly: true, isUndefinedValidityValid: false, type: "IMAGE" };
    const res = await create(editorA.token, { name: "Summer posters", filteredEntityType: "FILE", criteria, listed: true, custom: false });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: "Summer posters", filteredEntityType: "FILE", criteria, listed: true, custom: false, readOnly: false, customerId: customerA });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await get(viewerA.token, res.body.id)).body).toEqual(res.body);
  });

  it("'name: required, unique per customer'; 'filteredEntityType: FILE, CONTENT, DEVICE; required'; 'criteria: required'", async () => {
    expect((await create(editorA.token, { filteredEntityType: "FILE", criteria: {} })).body.key).toBe("quickFilter.error.nameRequired");
    expect((await create(editorA.token, { name: "x", criteria: {} })).body.key).toBe("quickFilter.error.entityTypeRequired");
    expect((await create(editorA.token, { name: "x", filteredEntityType: "CAMPAIGN", criteria: {} })).status).toBe(400);
    const noCriteria = await create(editorA.token, { name: "x", filteredEntityType: "FILE" });
    expect([noCriteria.status, noCriteria.body.key]).toEqual([400, "quickFilter.error.invalidCriteria"]);

    expect((await create(editorA.token, { name: "Unique", filteredEntityType: "DEVICE", criteria: {} })).status).toBe(200);
    const taken = await create(editorA.token, { name: "Unique", filteredEntityType: "FILE", criteria: {} });
    expect([taken.status, taken.body.key]).toEqual([409, "quickFilter.error.nameTaken"]);
    expect((await create(editorB.token, { name: "Unique", filteredEntityType: "DEVICE", criteria: {} })).status).toBe(200);
  });

  it("'criteria: must match filteredEntityType ... FILE adds validFileOnly, isUndefinedValidityValid'", async () => {
    const refused = async (filteredEntityType: string, criteria: unknown) => {
      const res = await create(editorA.token, { name: `bad ${++n}`, filteredEntityType, criteria });
      expect(res.status, `${filteredEntityType} ${JSON.stringify(criteria)}: ${res.text}`).toBe(400);
      expect(res.body.key).toBe("quickFilter.error.invalidCriteria");
      return res.body;
    };
    // The folder criterion is per type: folderId (FILE), groupId (CONTENT), deviceGroupId (DEVICE).
    expect((await refused("FILE", { groupId: randomUUID() })).details.field).toBe("groupId");
    await refused("CONTENT", { folderId: randomUUID() });
    await refused("DEVICE", { groupId: randomUUID() });
    // Only FILE has the validity criteria.
    await refused("CONTENT", { validFileOnly: true });
    await refused("DEVICE", { isUndefinedValidityValid: true });
    // Kinds: booleans, arrays of (valid) tags, strings.
    await refused("FILE", { searchRecursively: "yes" });
    await refused("FILE", { tags: "summer" });
    await refused("FILE", { tags: ["-bad"] });
    await refused("FILE", { name: 5 });
    // `search` must be valid filter language over the entity's list fields.
    expect((await refused("FILE", { search: "bogusField:1" })).details.reason).toBe("search.error.unknownField");
    await refused("FILE", { search: "name:(" });
    await refused("DEVICE", { type: "TOASTER" });
    // File kinds are a closed set too (media's list refuses `type=BOGUS`): a filter that could never be applied is refused when saved.
    await refused("FILE", { type: "BOGUS" });
    await refused("FILE", { search: "type=BOGUS" });
    // Not an object at all: refused by the edge already.
    expect((await create(editorA.token, { name: "array", filteredEntityType: "FILE", criteria: [1, 2] })).status).toBe(400);

    await made(editorA.token, "CONTENT", { groupId: randomUUID(), searchRecursively: false, tags: ["menu"], search: "structureType=SLIDE" });
    await made(editorA.token, "DEVICE", { deviceGroupId: randomUUID(), type: ["SCREEN", "TABLET"], search: "deviceStatus=ONLINE|licenseStatus=TRIAL" });
  });

  it("GET /api/quickFilter/{id}: unknown, malformed or another customer's id is 404 quickFilter.error.notFound", async () => {
    const other = await made(editorB.token, "FILE", {});
    for (const id of [other.id, randomUUID(), "nope"]) {
      const res = await get(editorA.token, id);
      expect([res.status, res.body.key]).toEqual([404, "quickFilter.error.notFound"]);
    }
  });

  it("GET /api/v2/quickFilter lists the caller's filters as a Page with search, sort and select", async () => {
    const res = await platform.http.get("/api/v2/quickFilter", { token: viewerA.token, query: { search: "filteredEntityType=CONTENT", select: "name,filteredEntityType,readOnly" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.totalElements).toBeGreaterThan(0);
    for (const f of res.body.content) {
      expect(f.filteredEntityType).toBe("CONTENT");
      expect(f.readOnly).toBe(false);
      expect(f.criteria).toBeUndefined();
    }
    const all = await platform.http.get("/api/v2/quickFilter", { token: editorB.token, query: { size: 100 } });
    expect(all.body.content.every((f: any) => f.customerId !== customerA)).toBe(true);
  });

  it("'filteredEntityType ... immutable'; update changes name, criteria (validated against the stored type), listed", async () => {
    const f = await made(editorA.token, "FILE", { name: "a" });
    const immutable = await update(editorA.token, f.id, { filteredEntityType: "DEVICE" });
    expect([immutable.status, immutable.body.key]).toEqual([400, "quickFilter.error.entityTypeImmutable"]);
    const invalid = await update(editorA.token, f.id, { criteria: { deviceGroupId: randomUUID() } });
    expect([invalid.status, invalid.body.key]).toEqual([400, "quickFilter.error.invalidCriteria"]);
    const ok = await update(editorA.token, f.id, { name: "Renamed", filteredEntityType: "FILE", criteria: { tags: ["x"] }, listed: true });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ id: f.id, name: "Renamed", criteria: { tags: ["x"] }, listed: true, filteredEntityType: "FILE" });
    expect((await update(editorB.token, f.id, { name: "Stolen" })).status).toBe(404);
    expect((await update(viewerA.token, f.id, { name: "Viewer" })).status).toBe(403);
  });

  it("delete: 204, then 404", async () => {
    const f = await made(editorA.token, "DEVICE", {});
    expect((await remove(editorB.token, f.id)).status).toBe(404);
    expect((await remove(editorA.token, f.id)).status).toBe(204);
    expect((await get(editorA.token, f.id)).status).toBe(404);
    expect((await remove(editorA.token, f.id)).status).toBe(404);
  });
});

describe("quick filters: usage", () => {
  it("'DELETE ... refused while used by channels, sub-channels, data sources or filtered folders' (usage index fed by quickFilter.usage.changed)", async () => {
    const f = await made(editorA.token, "FILE", { tags: ["poster"] });
    const folder = randomUUID();
    await usage(f.id, "FILE_FOLDER", folder, true, 1);
    await usageApplied(f.id, 1);
    const refused = await remove(editorA.token, f.id);
    expect(refused.body.key).toBe("quickFilter.error.inUse");
    expect(refused.body.details.usedBy).toEqual([{ type: "FILE_FOLDER", id: folder }]);
    // A filtered folder does not make the filter readOnly (only channels and sub-channels do).
    expect((await get(editorA.token, f.id)).body.readOnly).toBe(false);

    // An older "used" arriving after the folder's deletion does not resurrect the usage.
    await usage(f.id, "FILE_FOLDER", folder, false, 3);
    await usage(f.id, "FILE_FOLDER", folder, true, 2);
    await usageApplied(f.id, 3);
    await new Promise((r) => setTimeout(r, 100)); // let the late (older) event arrive too
    expect((await remove(editorA.token, f.id)).status).toBe(204);
  });

  it("'readOnly: computed: true when used by channels or sub-channels'; a readOnly filter refuses updates; usage details are select-only", async () => {
    const f = await made(editorA.token, "DEVICE", {});
    const campaign = randomUUID();
    await usage(f.id, "CAMPAIGN", campaign, true, 1);
    const read = await eventually(() => get(editorA.token, f.id), (r) => r.body.readOnly === true);
    expect(read.body.campaignUsageDetails).toBeUndefined();
    const refused = await update(editorA.token, f.id, { name: "changed" });
    expect([refused.status, refused.body.key]).toEqual([409, "quickFilter.error.readOnly"]);

    const listed = await platform.http.get("/api/v2/quickFilter", { token: editorA.token, query: { search: `id=${f.id}`, select: "readOnly,campaignUsageDetails,messageUsageDetails" } });
    expect(listed.body.content).toEqual([{ id: f.id, readOnly: true, campaignUsageDetails: { ids: [campaign] }, messageUsageDetails: { ids: [] } }]);

    await usage(f.id, "CAMPAIGN", campaign, false, 2);
    await eventually(() => get(editorA.token, f.id), (r) => r.body.readOnly === false);
    expect((await update(editorA.token, f.id, { name: "changed" })).status).toBe(200);
  });
});
