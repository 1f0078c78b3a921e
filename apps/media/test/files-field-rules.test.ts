// Field rules of file writes and reads, over HTTP through the gateway: the tag
// format (document 2 "Tag"), clearing tags and validity with PUT /api/file/{id}
// and keeping an omitted bound in bulk validity (document 1 "Update file", "Set
// validity on many files"), the summary's sort, and unlimited storage.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readErrorDetail } from "@signage/auth";
import { eventually } from "@signage/testing";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let t: Tenant;

beforeAll(async () => {
  lib = await startLibrary("media_field_rules");
  t = await lib.tenant();
}, 60_000);
afterAll(() => lib?.close());

const row = async (id: string) => lib.knex("file").where({ id }).first();
const put = (id: string, body: unknown) => lib.http.put(`/api/file/${id}`, { token: t.editor.token, body });

describe("'Format: must not start with `-` or whitespace; letters, digits and `- _ # .` allowed; at most 2048 characters'", () => {
  const bad = ["-lead", " lead", "\tlead", "semi;colon", "slash/", "", "x".repeat(2049)];

  it("PUT /api/file/{id}: a bad tag is 400 tag.error.invalidFormat (core's key) and nothing changes; good tags are stored as sent", async () => {
    const f = await lib.file(t, { tags: ["before"] });
    for (const tag of bad) {
      const res = await put(f.id, { name: "renamed.png", tags: ["fine", tag] });
      expect([res.status, res.body.key], JSON.stringify(tag)).toEqual([400, "tag.error.invalidFormat"]);
    }
    const notText = await put(f.id, { tags: [1] });
    expect([notText.status, notText.body.key]).toEqual([400, "tag.error.invalidFormat"]);
    expect(await row(f.id)).toMatchObject({ tags: ["before"], name: f.name });
    const good = ["Ünïcode_1", "with space", "a#b.c-d", "x".repeat(2048)];
    const res = await put(f.id, { tags: good });
    expect(res.status, res.text).toBe(200);
    expect(res.body.tags).toEqual(good);
  });

  it("tags/add and tags/set refuse a bad tag (400) without touching any file; tags/remove still removes a malformed tag stored earlier", async () => {
    const f = await lib.file(t, { name: "fmt-bulk.png", tags: ["-legacy", "keep"] });
    for (const op of ["add", "set"]) {
      for (const tag of bad.filter(Boolean)) {
        const res = await lib.http.post(`/api/v2/file/tags/${op}`, { token: t.editor.token, query: { search: "name=fmt-bulk.png" }, body: ["ok", tag] });
        expect([res.status, res.body.key], `${op} ${JSON.stringify(tag)}`).toEqual([400, "tag.error.invalidFormat"]);
      }
    }
    expect((await row(f.id)).tags).toEqual(["-legacy", "keep"]);
    const removed = await lib.http.post("/api/v2/file/tags/remove", { token: t.editor.token, query: { search: "name=fmt-bulk.png" }, body: ["-legacy"] });
    expect(removed.status, removed.text).toBeLessThan(300);
    expect((await row(f.id)).tags).toEqual(["keep"]);
  });
});

describe("PUT /api/file/{fileId} 'JSON: name, validFrom (ms), validTo (ms), tags (array)': omitted = unchanged, [] / null clear", () => {
  it("tags: [] clears the tags (core's tag map drops them); omitted or null tags are unchanged", async () => {
    const f = await lib.file(t, { validFrom: 100, validTo: 200 });
    expect((await put(f.id, { tags: ["clear-me", "b"] })).body.tags).toEqual(["clear-me", "b"]);
    const tagMap = () => lib.http.get("/api/tag", { token: t.editor.token, query: { select: "fileTags" } });
    await eventually(tagMap, (r) => r.body.fileTags?.["clear-me"]?.count === 1, "tag counted");
    expect((await put(f.id, { name: "kept-tags.png" })).body.tags).toEqual(["clear-me", "b"]);
    expect((await put(f.id, { tags: null })).body.tags).toEqual(["clear-me", "b"]);
    const cleared = await put(f.id, { tags: [] });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.tags ?? []).toEqual([]);
    expect(await row(f.id)).toMatchObject({ tags: [], valid_from: 100, valid_to: 200, name: "kept-tags.png" });
    await eventually(tagMap, (r) => r.status === 200 && !r.body.fileTags?.["clear-me"]?.count, "tag released");
  });

  it("validFrom / validTo: a sent bound is set, an omitted one kept; an integer string is accepted, other values are 400", async () => {
    const f = await lib.file(t, { validFrom: 100, validTo: 200 });
    expect((await put(f.id, { validTo: 300 })).body).toMatchObject({ validFrom: 100, validTo: 300 });
    expect((await put(f.id, { validFrom: "150" })).body).toMatchObject({ validFrom: 150, validTo: 300 });
    for (const value of ["soon", 1.5, true, { at: 1 }]) {
      const res = await put(f.id, { validFrom: value });
      expect([res.status, res.body.key], JSON.stringify(value)).toEqual([400, "file.error.invalidValidity"]);
    }
    const empty = await put(f.id, { validFrom: 400 });
    expect([empty.status, empty.body.key]).toEqual([400, "file.error.invalidValidity"]);
    expect(await row(f.id)).toMatchObject({ valid_from: 150, valid_to: 300 });
  });

  it("validFrom / validTo: an explicit null clears the bound; the other bound and the tags stay", async () => {
    const f = await lib.file(t, { validFrom: 100, validTo: 200, tags: ["stay"] });
    const cleared = await put(f.id, { validTo: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ validFrom: 100, tags: ["stay"] });
    expect(cleared.body).not.toHaveProperty("validTo");
    expect(await row(f.id)).toMatchObject({ valid_from: 100, valid_to: null, tags: ["stay"] });
    expect((await put(f.id, { validFrom: null })).status).toBe(200);
    expect(await row(f.id)).toMatchObject({ valid_from: null, valid_to: null });
  });
});

describe("POST /api/v2/file/validity/set: an omitted bound is unchanged, as in PUT /api/file/{id}", () => {
  it("only validFrom keeps each file's validTo (and the reverse); a new bound past a kept one is 400 for the whole call", async () => {
    const one = await lib.file(t, { name: "win-1.png", validFrom: 100, validTo: 200 });
    const two = await lib.file(t, { name: "win-2.png", validFrom: 120, validTo: 500 });
    const set = (query: Record<string, number>) => lib.http.post("/api/v2/file/validity/set", { token: t.approver.token, query: { search: "name^win-", ...query } });

    expect((await set({ validFrom: 150 })).status).toBeLessThan(300);
    expect(await row(one.id)).toMatchObject({ valid_from: 150, valid_to: 200 });
    expect(await row(two.id)).toMatchObject({ valid_from: 150, valid_to: 500 });
    expect((await set({ validTo: 300 })).status).toBeLessThan(300);
    expect(await row(one.id)).toMatchObject({ valid_from: 150, valid_to: 300 });

    const clash = await set({ validFrom: 400 });
    expect([clash.status, clash.body.key]).toEqual([400, "file.error.invalidValidity"]);
    expect(await row(two.id)).toMatchObject({ valid_from: 150, valid_to: 300 });
    // Neither bound: refused (file-bulk-review-fixes.test.ts), nothing changed.
    const none = await set({});
    expect([none.status, none.body.key]).toEqual([400, "file.error.validityRequired"]);
    expect(await row(one.id)).toMatchObject({ valid_from: 150, valid_to: 300 });
  });
});

describe("GET /api/v2/file/view/summary: 'sort' per list", () => {
  it("a file-only field (size) sorts the files and leaves the folders in their default order; a field both know sorts both; a field neither knows is 400", async () => {
    const s = await lib.tenant();
    await lib.folder(s, s.rootId, "b-folder");
    await lib.folder(s, s.rootId, "a-folder");
    await lib.file(s, { name: "small.png", size: 1 });
    await lib.file(s, { name: "big.png", size: 300 });
    await lib.file(s, { name: "mid.png", size: 20 });
    // `sort` repeatable: in the path, as the test client sets one value per query key.
    const summary = (...sort: string[]) =>
      lib.http.get(`/api/v2/file/view/summary?${sort.map((x) => `sort=${encodeURIComponent(x)}`).join("&")}`, { token: s.viewer.token, query: { folderSearch: `parentId=${s.rootId}`, fileSearch: `fileFolderId=${s.rootId}`, size: 10 } });
    const names = (res: { body: { content: { folder?: { name: string }; file?: { name: string } }[] } }) => res.body.content.map((i) => i.folder?.name ?? i.file?.name);

    const bySize = await summary("size,desc");
    expect(bySize.status, bySize.text).toBe(200);
    expect(names(bySize)).toEqual(["a-folder", "b-folder", "big.png", "mid.png", "small.png"]);
    expect(names(await summary("name,desc", "size,asc"))).toEqual(["b-folder", "a-folder", "small.png", "mid.png", "big.png"]);
    const unknown = await summary("nosuch,asc");
    expect([unknown.status, unknown.body.key]).toEqual([400, "sort.error.unknownField"]);
  });
});

describe("storage statistics: 'storageSize ... null = unlimited'", () => {
  it("an unlimited customer gets totalAvailableStorageSize null (not 0, not left out); a limited one gets its storageSize", async () => {
    const unlimited = await lib.http.get("/api/v2/file/storageStatistics", { token: t.viewer.token });
    expect(unlimited.status, unlimited.text).toBe(200);
    expect(unlimited.body).toHaveProperty("totalAvailableStorageSize", null);
    expect(unlimited.body).toHaveProperty("totalUsedStorageSize");
    const limited = await lib.tenant();
    const put = await lib.http.put(`/api/customer/${limited.id}`, { token: lib.admin, body: { storageSize: 5000 } });
    expect(put.status, put.text).toBe(200);
    // Statistics go by the quota uploads see: media's replica, updated by customer.updated.
    const res = await eventually(() => lib.http.get("/api/v2/file/storageStatistics", { token: limited.viewer.token }), (r) => r.body.totalAvailableStorageSize === 5000, "storageSize replicated");
    expect(res.body.totalAvailableStorageSize).toBe(5000);
  });
});
