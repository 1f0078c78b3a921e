// List parameters of the library lists, over HTTP through the gateway: the
// summary's size cap holds for the whole page (document 2 "the endpoint may
// impose a lower cap"), readOnly (filled in per caller) is neither sortable nor
// searchable, every field offered for sorting sorts, and `=NULL` / `=!NULL` work
// on the computed JSON fields. Never a 500.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResourceRegistry } from "@signage/query";
import { fileResource } from "../src/files/file-resource.js";
import { fileFolderResource } from "../src/folders/file-folder-resource.js";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let t: Tenant;

beforeAll(async () => {
  lib = await startLibrary("media_list_params");
  t = await lib.tenant();
}, 60_000);
afterAll(() => lib?.close());

type Item = { folder?: { name: string }; file?: { name: string } };
const errorBody = (key: string) => ({ status: 400, error: "Bad Request", key, message: expect.stringContaining("'readOnly'"), details: expect.any(Object) });
const scalarFields = (resource: ResourceRegistry, pick: (f: { sortable: boolean; searchable: boolean; type: string }) => boolean) =>
  [...resource.fields.values()].filter((f) => f.type !== "relation" && pick(f as never)).map((f) => f.name);

describe("'`size` (int, default 20; the endpoint may impose a lower cap)': the summary caps before it pages", { timeout: 60_000 }, () => {
  it("size=2000 renders pages of 1000 rows in all (folders and files together), counts pages of 1000, and reaches every row", async () => {
    const s = await lib.tenant();
    // 1,100 folders and 1,400 files in the root, inserted directly (as tools/bench/media/list.ts seeds).
    await lib.knex.raw(
      `INSERT INTO file_folder (id, customer_id, name, parent_id, path)
       SELECT t.id, ?, 'folder-' || lpad(t.n::text, 4, '0'), ?::uuid, ARRAY[?::uuid, t.id]
         FROM (SELECT n, gen_random_uuid() AS id FROM generate_series(1, 1100) n) t`,
      [s.id, s.rootId, s.rootId],
    );
    await lib.knex.raw(
      `INSERT INTO file (id, customer_id, name, content_type, type, size, file_folder_id, path, creator_email)
       SELECT gen_random_uuid(), ?, 'file-' || lpad(g::text, 4, '0') || '.png', 'image/png', 'IMAGE', 100, ?::uuid, ARRAY[?::uuid], 'seed@example.test'
         FROM generate_series(1, 1400) g`,
      [s.id, s.rootId, s.rootId],
    );
    const summary = (page: number) =>
      lib.http.get("/api/v2/file/view/summary", { token: s.viewer.token, query: { folderSearch: `parentId=${s.rootId}`, fileSearch: `fileFolderId=${s.rootId}`, select: "name", folderSelect: "name", size: 2000, page } });
    const names = (items: Item[]) => items.map((i) => i.folder?.name ?? i.file?.name);

    const pages = [];
    for (let page = 0; page < 4; page++) {
      const res = await summary(page);
      expect(res.status, res.text).toBe(200);
      pages.push(res.body);
    }
    const facts = pages.map((p) => ({ size: p.size, numberOfElements: p.numberOfElements, totalElements: p.totalElements, totalPages: p.totalPages, first: p.first, last: p.last }));
    expect(facts).toEqual([
      { size: 1000, numberOfElements: 1000, totalElements: 2500, totalPages: 3, first: true, last: false },
      { size: 1000, numberOfElements: 1000, totalElements: 2500, totalPages: 3, first: false, last: false },
      { size: 1000, numberOfElements: 500, totalElements: 2500, totalPages: 3, first: false, last: true },
      { size: 1000, numberOfElements: 0, totalElements: 2500, totalPages: 3, first: false, last: true },
    ]);
    for (const p of pages) expect(p.content.length).toBe(p.numberOfElements);
    // Folders first, then files; each row exactly once over the pages.
    const all = pages.flatMap((p) => names(p.content));
    const expected = [
      ...Array.from({ length: 1100 }, (_, i) => `folder-${String(i + 1).padStart(4, "0")}`),
      ...Array.from({ length: 1400 }, (_, i) => `file-${String(i + 1).padStart(4, "0")}.png`),
    ];
    expect(all).toEqual(expected);
    expect(names(pages[1].content).filter((n) => n?.startsWith("folder-"))).toHaveLength(100);
  });
});

describe("'readOnly | boolean | true when caller has no write access': computed per caller after the query, so neither sortable nor searchable", () => {
  it("a VIEWER sees readOnly true on every row, while sort=readOnly and search=readOnly=... are 400 naming the field (files, folders, summary)", async () => {
    await lib.file(t, { name: "ro.png" });
    const listed = await lib.http.get("/api/v2/file", { token: t.viewer.token, query: { select: "name,readOnly" } });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.content.length).toBeGreaterThan(0);
    expect(listed.body.content.every((f: { readOnly: boolean }) => f.readOnly === true)).toBe(true);

    for (const path of ["/api/v2/file", "/api/v2/fileFolder"]) {
      for (const direction of ["asc", "desc"]) {
        const sorted = await lib.http.get(path, { token: t.viewer.token, query: { sort: `readOnly,${direction}` } });
        expect(sorted.body, `${path} sort`).toMatchObject(errorBody("sort.error.invalid"));
        expect(sorted.status).toBe(400);
        // The sortable fields the message offers leave it out.
        expect(sorted.body.message).toMatch(/sortable fields: id, name,/);
        expect(sorted.body.message.split("sortable fields:")[1]).not.toContain("readOnly");
      }
      for (const search of ["readOnly=true", "readOnly=false", "readOnly=NULL"]) {
        const searched = await lib.http.get(path, { token: t.viewer.token, query: { search } });
        expect(searched.body, `${path} ${search}`).toMatchObject(errorBody("search.error.invalid"));
        expect(searched.body.details).toMatchObject({ parameter: "search", field: "readOnly" });
      }
    }
    // location and thumbnail are signed URLs made after the query: search and sort cannot compare them either.
    for (const field of ["location", "thumbnail"]) {
      const searched = await lib.http.get("/api/v2/file", { token: t.viewer.token, query: { search: `${field}=x` } });
      expect([searched.status, searched.body.key, searched.body.message], field).toEqual([400, "search.error.invalid", expect.stringContaining("computed per caller after the query")]);
      const sorted = await lib.http.get("/api/v2/file", { token: t.viewer.token, query: { sort: `${field},asc` } });
      expect([sorted.status, sorted.body.key], field).toEqual([400, "sort.error.invalid"]);
    }
    const summary = (query: Record<string, string>) => lib.http.get("/api/v2/file/view/summary", { token: t.viewer.token, query });
    expect((await summary({ sort: "readOnly,asc" })).body).toMatchObject(errorBody("sort.error.invalid"));
    // The summary's parameters are fileSearch, folderSearch and folderSelect: its errors name those, not `search`.
    const fileSearch = (await summary({ fileSearch: "readOnly=true" })).body;
    expect(fileSearch).toMatchObject(errorBody("search.error.invalid"));
    expect([fileSearch.details.parameter, fileSearch.message]).toEqual(["fileSearch", expect.stringContaining("fileSearch")]);
    const folderSearch = (await summary({ folderSearch: "nope=1" })).body;
    expect([folderSearch.status, folderSearch.key]).toEqual([400, "search.error.unknownField"]);
    expect([folderSearch.details.parameter, folderSearch.message]).toEqual(["folderSearch", expect.stringContaining("in folderSearch")]);
    const folderSelect = (await summary({ folderSelect: "nope" })).body;
    expect([folderSelect.status, folderSelect.key]).toEqual([400, "select.error.unknownField"]);
    expect(folderSelect.details.parameter).toBe("folderSelect");
  });

  it("every field the lists offer for sorting sorts (200), both ways; none is a constant", async () => {
    await lib.file(t, { name: "sort-a.png", crcCheckSum: "0000abcd", metaData: { k: 1 } });
    await lib.folder(t, t.rootId, "sort-folder");
    for (const [path, resource] of [["/api/v2/file", fileResource], ["/api/v2/fileFolder", fileFolderResource]] as const) {
      const sortable = scalarFields(resource, (f) => f.sortable);
      expect(sortable).not.toContain("readOnly");
      for (const field of sortable) {
        // A sortable JSON field (the creator) sorts by one of its fields.
        const key = (resource.fields.get(field) as { type: string }).type === "json" ? `${field}.email` : field;
        for (const direction of ["asc", "desc"]) {
          const res = await lib.http.get(path, { token: t.viewer.token, query: { sort: `${key},${direction}` } });
          expect(res.status, `${path} sort=${key},${direction}: ${res.text}`).toBe(200);
        }
      }
    }
  });
});

describe("'Special values: `=NULL` (null or empty collection), `=!NULL` (not null or non-empty collection)': computed JSON fields too", () => {
  it("usageDetails, duplicateDetails, creator, the campaign usages (files and folders): =NULL and =!NULL answer 200 and split the rows exactly", async () => {
    const s = await lib.tenant();
    await lib.file(s, { name: "dup-1.png", crcCheckSum: "00001234", metaData: { a: 1 } });
    await lib.file(s, { name: "dup-2.png", crcCheckSum: "00001234" });
    await lib.file(s, { name: "single.png", creator: { email: "c@example.test", name: "C" } });
    await lib.folder(s, s.rootId, "json-folder");
    for (const [path, resource] of [["/api/v2/file", fileResource], ["/api/v2/fileFolder", fileFolderResource]] as const) {
      const ids = async (search: string) => {
        const res = await lib.http.get(path, { token: s.viewer.token, query: { search, select: "id", size: 1000 } });
        expect(res.status, `${path}?search=${search}: ${res.text}`).toBe(200);
        return (res.body.content as { id: string }[]).map((r) => r.id).sort();
      };
      const everyRow = await ids("");
      const jsonFields = scalarFields(resource, (f) => f.type === "json" && f.searchable);
      expect(jsonFields).toEqual(expect.arrayContaining(["usageDetails", "campaignUsageDetails"]));
      for (const field of jsonFields) {
        const none = await ids(`${field}=NULL`);
        const some = await ids(`${field}=!NULL`);
        expect([...none, ...some].sort(), `${path} ${field}`).toEqual(everyRow);
      }
    }
  });
});
