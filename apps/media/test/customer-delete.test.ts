// "Deleting a customer cascades to every service through an event; nothing of
// it remains readable afterwards": media's side of DELETE /api/customer/{id},
// over HTTP through the gateway, against PostgreSQL and the filesystem blob
// store. Every media table and every blob of the customer is checked, and a
// second customer's data is checked untouched.
import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreModule } from "@signage/core";
import { TeamEvent } from "@signage/runtime";
import { createFilesystemBlobStore, type BlobStore } from "@signage/storage";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform } from "@signage/testing";
import { mediaModule } from "../src/module.js";
import { TENANT_TABLES } from "../src/files/tenant-purge.js";
import { multipart, png } from "./uploads-support.js";
import { widgetZip } from "./support/custom-apps-zip.js";
import { packageForm } from "./support/custom-apps-platform.js";

let platform: TestPlatform;
let admin: string;
let blobDir: string;
let store: BlobStore;

beforeAll(async () => {
  blobDir = await mkdtemp(join(tmpdir(), "media-customer-delete-"));
  platform = await startPlatform({
    modules: [coreModule, mediaModule],
    prefix: "media_customer_delete",
    env: { STORAGE_URL: blobDir, STORAGE_SIGNING_SECRET: "test-signing-secret-0123456789", MEDIA_VALIDITY_SWEEP_MS: "3600000", UPLOAD_SWEEP_INTERVAL_MS: "3600000" },
  });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  store = createFilesystemBlobStore({ root: blobDir });
}, 60_000);
afterAll(async () => {
  await platform?.close();
  if (blobDir) await rm(blobDir, { recursive: true, force: true });
});

async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const until = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Every relative file path under `dir` (empty when it does not exist). */
async function filesUnder(dir: string): Promise<string[]> {
  try {
    return ((await readdir(dir, { recursive: true, withFileTypes: true })) as { isFile(): boolean; name: string; parentPath?: string; path?: string }[])
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath ?? e.path ?? "", e.name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
}

const customerDirs = (id: number) => ["files", "thumbnails", "custom-apps", ".composed/files", ".composed/thumbnails", ".composed/custom-apps"].map((d) => join(blobDir, d, String(id)));

async function blobFilesOf(id: number): Promise<string[]> {
  return (await Promise.all(customerDirs(id).map(filesUnder))).flat();
}

/** A tenant holding something in every media table and every kind of blob. */
async function populatedTenant(name: string): Promise<{ id: number; owner: TenantUser; keys: string[]; upload: { key: string; uploadId: string } }> {
  const customer = await createCustomer(platform.http, admin, { name });
  const owner = await createUser(platform.http, admin, customer.id, "OWNER");
  const token = owner.token;
  const media = platform.knexOf("media");
  const root = await eventually<{ id: string } | undefined>(() => media("file_folder").where({ customer_id: customer.id }).whereNull("parent_id").first(), Boolean, "root folder");

  // Team replica rows (team, user, membership, settings), fed by core's events.
  const teamId = randomUUID();
  const settings = { userFullAccessIfNotInTeam: true, accessResourcesWithoutTeam: true, isDeviceAndGroupCreationEnabledInRootForTeamUsers: true, isContentAndGroupCreationEnabledInRootForTeamUsers: true, isFileAndFolderCreationEnabledInRootForTeamUsers: true };
  await platform.bus.publish({ type: TeamEvent.created, customerId: customer.id, data: { id: teamId, customerId: customer.id, name: `${name} team` } });
  await platform.bus.publish({ type: TeamEvent.userAccessChanged, customerId: customer.id, data: { userId: randomUUID(), customerId: customer.id, restricted: false, deleted: false } });
  await platform.bus.publish({ type: TeamEvent.userTeamsChanged, customerId: customer.id, data: { userId: randomUUID(), customerId: customer.id, teams: [{ teamId, readOnly: false }] } });
  await platform.bus.publish({ type: TeamEvent.settingsChanged, customerId: customer.id, data: { customerId: customer.id, settings } });
  for (const table of ["team", "team_user", "team_membership", "team_settings"]) {
    await eventually(() => media(table).where({ customer_id: customer.id }), (rows) => rows.length > 0, `${table} replicated`);
  }

  // A folder, a file with its thumbnail, assigned to the team.
  const folder = await platform.http.post("/api/fileFolder/", { token, query: { parentId: root!.id, name: "Doomed folder" } });
  expect(folder.status, folder.text).toBe(200);
  const form = multipart([
    { name: "files[]", filename: "pic.png", type: "image/png", data: png(4, 3) },
    { name: "previews[]", filename: "pic.png", type: "image/png", data: png(2, 2) },
  ]);
  const uploaded = await platform.http.post("/api/file", { token, body: form, query: { parentId: folder.body.id } });
  expect(uploaded.status, uploaded.text).toBe(200);
  const fileId = uploaded.body[0].id;
  const assigned = await platform.http.post("/api/file/updateTeamAssignments", { token, query: { fileId }, body: { assignToTeams: [{ teamId, readOnly: false }] } });
  expect(assigned.status, assigned.text).toBeLessThan(300);

  // An open chunked upload session with one part received.
  const init = await platform.http.post("/api/v2/file/upload/init", { token, body: { name: "clip.mp4", size: 200, totalChunks: 2, contentType: "video/mp4" } });
  expect(init.status, init.text).toBe(200);
  const part = await platform.http.put(`/api/v2/file/upload/${init.body.uploadId}/part/1`, { token, body: Buffer.alloc(100, 1), headers: { "content-type": "application/octet-stream" } });
  expect(part.status, part.text).toBeLessThan(300);

  // A private app with an uploaded package (ZIP and unpacked files).
  const app = await platform.http.post("/api/customApp/myApps", { token, body: { name: `${name} widget` } });
  expect(app.status, app.text).toBe(200);
  const pkg = await platform.http.post(`/api/customApp/myApps/${app.body.id}/upload`, { token, body: packageForm(await widgetZip({ name: `widget-${customer.id}`, version: "1.0.0" })) });
  expect(pkg.status, pkg.text).toBe(200);

  for (const table of TENANT_TABLES) expect(await media(table).where({ customer_id: customer.id }), `${table} populated`).not.toHaveLength(0);
  const file = await media("file").where({ id: fileId }).first();
  const appRow = await media("custom_app").where({ id: app.body.id }).first();
  const session = await media("upload_session").where({ customer_id: customer.id }).first();
  const keys = [file.storage_key, file.thumbnail_key, appRow.package_key];
  for (const key of keys) expect(await store.stat(key), key).toBeDefined();
  return { id: customer.id, owner, keys, upload: { key: session.storage_key, uploadId: session.store_upload_id } };
}

describe("customer deletion in media", { timeout: 30_000 }, () => {
  it("'Deleting a customer cascades to every service through an event; nothing of it remains readable afterwards': no media row and no blob of the customer remains", async () => {
    const doomed = await populatedTenant("Media Doomed");
    const survivor = await populatedTenant("Media Survivor");
    expect(await store.multipart.listParts(doomed.upload.key, doomed.upload.uploadId)).toHaveLength(1);
    expect(await blobFilesOf(doomed.id)).not.toHaveLength(0);
    const survivorBlobs = await blobFilesOf(survivor.id);

    const del = await platform.http.delete(`/api/customer/${doomed.id}`, { token: admin });
    expect(del.status, del.text).toBe(204);

    const media = platform.knexOf("media");
    // Rows: gone in the event's transaction (the tenant replica keeps only its tombstone).
    await eventually(() => media("tenant").where({ customer_id: doomed.id }).first(), (t) => t?.deleted === true, "tenant tombstone");
    for (const table of TENANT_TABLES) expect(await media(table).where({ customer_id: doomed.id }), table).toHaveLength(0);
    // Bytes: gone right after the commit (files, thumbnails, app packages, the open upload's parts).
    await eventually(() => blobFilesOf(doomed.id), (files) => files.length === 0, "the customer's blobs deleted");
    for (const key of doomed.keys) expect(await store.stat(key), key).toBeUndefined();
    await expect(store.multipart.listParts(doomed.upload.key, doomed.upload.uploadId)).rejects.toThrow();
    const listed = await platform.http.get("/api/v2/file", { token: admin, query: { customerId: doomed.id } });
    expect(listed.body.content ?? []).toEqual([]);

    // The other customer keeps every row and every blob.
    for (const table of TENANT_TABLES) expect(await media(table).where({ customer_id: survivor.id }), table).not.toHaveLength(0);
    expect(await blobFilesOf(survivor.id)).toEqual(survivorBlobs);
    for (const key of survivor.keys) expect(await store.stat(key), key).toBeDefined();
    expect(await store.multipart.listParts(survivor.upload.key, survivor.upload.uploadId)).toHaveLength(1);
    const files = await platform.http.get("/api/v2/file", { token: survivor.owner.token });
    expect(files.status).toBe(200);
    expect(files.body.content).toHaveLength(1);
  });
});
