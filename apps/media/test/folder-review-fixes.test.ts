// Fixes from the folder review, over HTTP through the gateway (document 1 "File folder",
// "Summary of files and folders").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustomer, createUser, eventually } from "@signage/testing";
import { startLibrary, type Library } from "./files-support.js";

let lib: Library;

beforeAll(async () => {
  lib = await startLibrary("media_folder_review_fixes");
}, 60_000);
afterAll(() => lib?.close());

const rootRows = (customerId: number) => lib.knex("file_folder").where({ customer_id: customerId }).whereNull("parent_id");

/** A customer as media sees it before `customer.created` arrived: no root, no tenant row. */
async function customerMediaHasNotHeardOf(): Promise<number> {
  const { id } = await createCustomer(lib.http, lib.admin);
  await eventually(() => rootRows(id).first(), (row) => row !== undefined, "root from customer.created");
  await rootRows(id).del();
  await lib.knex("tenant").where({ customer_id: id }).del();
  return id;
}

describe("'Root folder: auto-created per customer': GET /api/v2/file/view/summary shows it as the folder list does", () => {
  // The summary's folder part skipped the lazy root creation GET /api/v2/fileFolder runs: right after
  // the customer's create (before media consumed customer.created) it listed no root at all.
  it("a tenant's own user, before customer.created arrived, finds its root in the summary's folders", async () => {
    const id = await customerMediaHasNotHeardOf();
    const viewer = await createUser(lib.http, lib.admin, id, "VIEWER");
    const res = await lib.http.get("/api/v2/file/view/summary", { token: viewer.token, query: { folderSearch: "parentId=NULL" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.totalElements).toBe(1);
    expect(res.body.content).toHaveLength(1);
    expect(res.body.content[0].folder).toMatchObject({ customerId: id, parentId: null, fileFolderType: 1 });
    expect(await rootRows(id)).toHaveLength(1);
  });

  it("an ADMIN naming that customer finds it too (core confirms the customer); an unknown customer gets none", async () => {
    const id = await customerMediaHasNotHeardOf();
    const res = await lib.http.get("/api/v2/file/view/summary", { token: lib.admin, query: { customerId: String(id), folderSearch: "parentId=NULL" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.content.map((row: { folder?: { customerId: number; parentId: null } }) => [row.folder?.customerId, row.folder?.parentId])).toEqual([[id, null]]);
    const missing = await lib.http.get("/api/v2/file/view/summary", { token: lib.admin, query: { customerId: "987654321", folderSearch: "parentId=NULL" } });
    expect([missing.status, missing.body.content]).toEqual([200, []]);
    expect(await rootRows(987654321)).toHaveLength(0);
  });
});
