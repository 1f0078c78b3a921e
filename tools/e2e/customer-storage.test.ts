// Document 2 "Customer": "currentTotalCustomerStorageSize, currentDatasourceStorageSize,
// currentCustomerFilesStorageSize | long | computed". Core fills them from media's
// StorageUsageService (one call per page); the bytes are a 1x1 PNG uploaded through the gateway.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform, eventually } from "@signage/testing";

const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const SELECT = "id,currentCustomerFilesStorageSize,currentTotalCustomerStorageSize,currentDatasourceStorageSize";
const SEED = "currentTotalCustomerStorageSize, currentDatasourceStorageSize, currentCustomerFilesStorageSize | long | computed";

interface CustomerJson {
  id: number;
  currentCustomerFilesStorageSize?: number | string;
  currentTotalCustomerStorageSize?: number | string;
  currentDatasourceStorageSize?: number | string;
}


describe("customer storage fields with core and media", () => {
  let platform: TestPlatform;
  let admin: string;
  let withFile: number;
  let withoutFile: number;
  let owner: TenantUser;

  beforeAll(async () => {
    platform = await startPlatform({ modules: [coreModule, mediaModule], prefix: "customer_storage" });
    admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    withFile = (await createCustomer(platform.http, admin)).id;
    withoutFile = (await createCustomer(platform.http, admin)).id;
    owner = await createUser(platform.http, admin, withFile, "OWNER");
    // The root folder (and media's tenant replica) arrive with customer.created; uploads go there.
    await eventually(() => platform.http.get("/api/v2/fileFolder", { token: owner.token, query: { search: "parentId=NULL" } }), (r) => r.body.content?.length === 1, "root folder");
    const form = new FormData();
    form.append("files[]", new Blob([PNG_1X1], { type: "image/png" }), "pixel.png");
    const res = await platform.http.post("/api/file", { token: owner.token, body: form });
    expect(res.status, res.text).toBe(200);
  }, 60_000);
  afterAll(() => platform?.close());

  const list = (token: string, select?: string) => platform.http.get("/api/customer", { token, query: { size: 100, ...(select ? { select } : {}) } });
  const byId = (content: CustomerJson[], id: number) => content.find((c) => Number(c.id) === id);

  it(`"${SEED}": ADMIN's list shows the uploaded file's bytes for its customer and 0 for another`, async () => {
    const res = await list(admin, SELECT);
    expect(res.status, res.text).toBe(200);
    const a = byId(res.body.content, withFile)!;
    const b = byId(res.body.content, withoutFile)!;
    expect(Number(a.currentCustomerFilesStorageSize)).toBe(PNG_1X1.length);
    // No data sources exist yet: their storage is 0, so the total equals the files.
    expect(Number(a.currentDatasourceStorageSize)).toBe(0);
    expect(Number(a.currentTotalCustomerStorageSize)).toBe(PNG_1X1.length);
    expect(Number(b.currentCustomerFilesStorageSize)).toBe(0);
    expect(Number(b.currentTotalCustomerStorageSize)).toBe(0);
    // The file list agrees on the size.
    const files = await platform.http.get("/api/v2/file", { token: owner.token, query: { select: "id,size" } });
    expect(Number(files.body.content[0].size)).toBe(PNG_1X1.length);
  });

  it('"computed and select-only fields must be named explicitly": absent unless selected, only the selected ones', async () => {
    const plain = await list(admin);
    expect(plain.status, plain.text).toBe(200);
    expect(byId(plain.body.content, withFile)).not.toHaveProperty("currentCustomerFilesStorageSize");
    const one = await list(admin, "id,currentCustomerFilesStorageSize");
    const row = byId(one.body.content, withFile)!;
    expect(Number(row.currentCustomerFilesStorageSize)).toBe(PNG_1X1.length);
    expect(row).not.toHaveProperty("currentTotalCustomerStorageSize");
  });

  it("an OWNER reads its own customer's usage (media answers within the caller's scope)", async () => {
    const res = await list(owner.token, SELECT);
    expect(res.status, res.text).toBe(200);
    expect(res.body.content.map((c: CustomerJson) => Number(c.id))).toEqual([withFile]);
    expect(Number(res.body.content[0].currentTotalCustomerStorageSize)).toBe(PNG_1X1.length);
  });

  it("a single-customer response (PUT) carries the storage fields too", async () => {
    const res = await platform.http.put(`/api/customer/${withFile}`, { token: admin, body: { comment: "storage" } });
    expect(res.status, res.text).toBe(200);
    expect(Number(res.body.currentCustomerFilesStorageSize)).toBe(PNG_1X1.length);
  });
});

describe("customer storage fields without media in the composition", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startPlatform({ modules: [coreModule], prefix: "customer_storage_core" });
  }, 60_000);
  afterAll(() => platform?.close());

  it("the customer read still answers 200, the storage fields absent", async () => {
    const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const id = (await createCustomer(platform.http, admin)).id;
    const res = await platform.http.get("/api/customer", { token: admin, query: { select: SELECT } });
    expect(res.status, res.text).toBe(200);
    const row = res.body.content.find((c: CustomerJson) => Number(c.id) === id);
    expect(row).toBeDefined();
    expect(row).not.toHaveProperty("currentCustomerFilesStorageSize");
    expect(row).not.toHaveProperty("currentTotalCustomerStorageSize");
  });
});
