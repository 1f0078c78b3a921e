// "Root folder: auto-created per customer, has no name and parentId null, cannot be deleted. To
// create something in the root, first read the root id (filter parentId=NULL; ADMIN also passes
// customerId)". Media makes it from `customer.created`, "and lazily if missing": a client that
// reads the root right after creating the customer, before media consumed the event, still finds
// it. Only for customers that exist and are not deleted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustomer, createUser, eventually, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";
import { coreModule } from "@signage/core";
import { mediaModule } from "../src/module.js";

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule, mediaModule], prefix: "media_root_lazy" });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
}, 60_000);
afterAll(() => platform?.close());

const media = () => platform.knexOf("media");
const rootRows = (customerId: number) => media()("file_folder").where({ customer_id: customerId }).whereNull("parent_id");
const listRoots = (token: string, customerId?: number) =>
  platform.http.get("/api/v2/fileFolder", { token, query: { search: "parentId=NULL", ...(customerId ? { customerId: String(customerId) } : {}) } });

/** A customer as media sees it before `customer.created` arrived: no root, no tenant row. */
async function customerMediaHasNotHeardOf(): Promise<number> {
  const { id } = await createCustomer(platform.http, admin);
  await eventually(() => rootRows(id).first(), (row) => row !== undefined, "root from customer.created");
  await rootRows(id).del();
  await media()("tenant").where({ customer_id: id }).del();
  return id;
}

describe("the root file folder, lazily", () => {
  it("an ADMIN's list of a customer media has not heard of yet shows its root (core confirms the customer)", async () => {
    const id = await customerMediaHasNotHeardOf();
    const res = await listRoots(admin, id);
    expect(res.status).toBe(200);
    expect(res.body.content).toHaveLength(1);
    expect(res.body.content[0]).toMatchObject({ customerId: id, parentId: null, fileFolderType: 1 });
    expect(res.body.content[0].name ?? null).toBeNull();
    expect(await rootRows(id)).toHaveLength(1);
    // Read again: the same root, never a second one.
    expect((await listRoots(admin, id)).body.content[0].id).toBe(res.body.content[0].id);
  });

  it("a tenant's own user finds its root", async () => {
    const id = await customerMediaHasNotHeardOf();
    const viewer = await createUser(platform.http, admin, id, "VIEWER");
    const res = await listRoots(viewer.token);
    expect(res.status).toBe(200);
    expect(res.body.content.map((f: { customerId: number }) => f.customerId)).toEqual([id]);
  });

  it("creates nothing for a customer that does not exist", async () => {
    const missing = 987_654_321;
    const res = await listRoots(admin, missing);
    expect(res.status).toBe(200);
    expect(res.body.content).toEqual([]);
    expect(await rootRows(missing)).toHaveLength(0);
  });

  it("creates nothing for a deleted customer", async () => {
    const { id } = await createCustomer(platform.http, admin);
    await eventually(() => rootRows(id).first(), (row) => row !== undefined, "root from customer.created");
    expect((await platform.http.delete(`/api/customer/${id}`, { token: admin })).status).toBe(204);
    await eventually(() => media()("tenant").where({ customer_id: id }).first(), (row) => row?.deleted === true, "tenant purged");
    const res = await listRoots(admin, id);
    expect([200, 404]).toContain(res.status);
    expect(res.body.content ?? []).toEqual([]);
    expect(await rootRows(id)).toHaveLength(0);
  });
});
