// The file repository other media parts (uploads, sync) create files through.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, createTestDatabase, newId, type Database, type TestDatabase } from "@signage/db";
import { ensureRootFolder } from "../src/folders/root-folder.js";
import { insertFile } from "../src/files/file-repository.js";

let testDb: TestDatabase;
let db: Database;

beforeAll(async () => {
  testDb = await createTestDatabase({ prefix: "media_files_repo" });
  db = await createDatabase({ url: testDb.url, schema: "media", migrationsDir: new URL("../migrations/", import.meta.url) });
  await db.migrate();
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

describe("insertFile", () => {
  it("puts a file without parent into the customer's root folder ('Root folder: auto-created per customer'), lazily", async () => {
    const row = await insertFile(db.knex, { customerId: 7, name: " a.png ", contentType: "image/png", size: 10, width: 20, height: 10, tags: ["x", "x", " "] });
    const root = await db.knex("file_folder").where({ customer_id: 7 }).whereNull("parent_id").first();
    expect(row).toMatchObject({ name: "a.png", type: "IMAGE", file_folder_id: root.id, path: [root.id], tags: ["x"], orientation: "landscape" });
  });

  it("refuses a folder of another tenant and an empty validity window", async () => {
    await ensureRootFolder(db.knex, 8, newId);
    const other = await db.knex("file_folder").where({ customer_id: 8 }).first();
    await expect(insertFile(db.knex, { customerId: 7, fileFolderId: other.id, name: "b.png", contentType: "image/png", size: 1 })).rejects.toThrow(/not found/);
    await expect(insertFile(db.knex, { customerId: 7, name: "b.png", contentType: "image/png", size: 1, validFrom: 10, validTo: 5 })).rejects.toThrow(/validFrom/);
  });
});
