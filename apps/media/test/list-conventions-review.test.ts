// Review of the library lists against the list conventions (document 2 "Paging, projection,
// common list parameters", "Filter language"; document 1 "Common list parameters"), over HTTP
// through the gateway. Error bodies point into the text the caller sent, also where the service
// rewrites or widens it before the list runs (a filtered folder's search, the folders' select).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let t: Tenant;
let filtered: string;
let quickFilterId: string;

beforeAll(async () => {
  lib = await startLibrary("media_list_review");
  t = await lib.tenant();
  const qf = await lib.http.post("/api/quickFilter/", { token: t.owner.token, body: { name: `qf-${randomUUID()}`, filteredEntityType: "FILE", criteria: { name: "x" } } });
  expect(qf.status, qf.text).toBe(200);
  quickFilterId = qf.body.id;
  const folder = await lib.http.post("/api/fileFolder/addFilteredFileFolder", { token: t.editor.token, query: { parentId: t.rootId, name: "filtered", quickFilterId: qf.body.id } });
  expect(folder.status, folder.text).toBe(200);
  filtered = folder.body.id;
}, 60_000);
afterAll(() => lib?.close());

describe("'Common list parameters: ... `search` (filter expression, see document 2)': a filtered folder's search reports mistakes where the caller made them", () => {
  // `fileFolderId=<filtered folder>` is answered with the folder's quick filter: the term is
  // replaced and the search reprinted. A mistake in another term must still be reported at its
  // position in the search that was sent (50 here), not in the reprint (13).
  const search = () => `fileFolderId=${filtered},nosuch=1`;
  const expectCallersPosition = (res: { status: number; body: any; text: string }, parameter: string) => {
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ key: "search.error.unknownField", details: { parameter, field: "nosuch", position: 50 } });
    expect(res.body.message).toContain(`in ${parameter} at position 50`);
  };

  it("GET /api/v2/file: unknown field after the folder term: 400 at the caller's position", async () => {
    expectCallersPosition(await lib.http.get("/api/v2/file", { token: t.viewer.token, query: { search: search() } }), "search");
    const typed = await lib.http.get("/api/v2/file", { token: t.viewer.token, query: { search: `fileFolderId=${filtered},size>abc` } });
    expect([typed.status, typed.body.key, typed.body.details?.position]).toEqual([400, "search.error.invalid", 50]);
  });

  it("GET /api/v2/file/view/summary: the same for fileSearch", async () => {
    expectCallersPosition(await lib.http.get("/api/v2/file/view/summary", { token: t.viewer.token, query: { fileSearch: search() } }), "fileSearch");
  });

  it("'Bulk operations act on the files matched by `search`': the same for tags/add, and no file changes", async () => {
    const file = await lib.file(t, { name: "x-bulk.png", tags: ["keep"] });
    expectCallersPosition(await lib.http.post("/api/v2/file/tags/add", { token: t.editor.token, query: { search: search() }, body: ["new"] }), "search");
    expect((await lib.knex("file").where({ id: file.id }).first("tags")).tags).toEqual(["keep"]);
  });

  it("a well-formed search through a filtered folder still lists its quick filter's files", async () => {
    await lib.file(t, { name: "x-listed.png", size: 5 });
    const res = await lib.http.get("/api/v2/file", { token: t.viewer.token, query: { search: `fileFolderId=${filtered},size<10`, select: "name" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.content.map((f: { name: string }) => f.name)).toEqual(["x-listed.png"]);
  });
});

describe("'`select`: `*` = all primitive fields (not computed or relations)': the folders' widened `*` reports mistakes in the select that was sent", () => {
  // A folder `*` is widened with the derived sync flags (`*,isSyncedAlphaFolder,...`). A malformed
  // select must be reported as sent: `*,` ends after the comma (position 2, end of input), and
  // details.select is the caller's text, not `*,,isSyncedAlphaFolder,...`.
  const expectAsSent = (res: { status: number; body: any; text: string }, parameter: string, select: string, position: number) => {
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ key: "select.error.invalid", details: { parameter, select, position } });
    expect(res.body.message).toContain("end of input");
  };

  it("GET /api/v2/fileFolder?select=*, and select=*,name( : 400 on the caller's text", async () => {
    expectAsSent(await lib.http.get("/api/v2/fileFolder", { token: t.viewer.token, query: { select: "*," } }), "select", "*,", 2);
    expectAsSent(await lib.http.get("/api/v2/fileFolder", { token: t.viewer.token, query: { select: "*,name(" } }), "select", "*,name(", 7);
  });

  it("GET /api/v2/file/view/summary?folderSelect=*, : 400 naming folderSelect, on the caller's text", async () => {
    expectAsSent(await lib.http.get("/api/v2/file/view/summary", { token: t.viewer.token, query: { folderSelect: "*," } }), "folderSelect", "*,", 2);
  });

  it("a well-formed `*` is still widened with the derived flags, and an unknown field is named at its position", async () => {
    const ok = await lib.http.get("/api/v2/fileFolder", { token: t.viewer.token, query: { select: "*", search: "parentId=NULL" } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.content[0]).toMatchObject({ isSyncedAlphaFolder: false, isSyncedBetaFolder: false, isSyncedGammaFolder: false });
    const unknown = await lib.http.get("/api/v2/fileFolder", { token: t.viewer.token, query: { select: "*,nosuch" } });
    expect(unknown.status, unknown.text).toBe(400);
    expect(unknown.body).toMatchObject({ key: "select.error.unknownField", details: { parameter: "select", field: "nosuch", position: 2 } });
  });
});

describe("GET /api/v2/file/view/summary 'sort' ('`sort`: `field,direction`; repeatable; nested fields allowed'): a field neither list knows", () => {
  // The summary sorts folders and files with one `sort`: a file field (size, creator.email) is as
  // good a key as a folder field. The 400 for a field of neither must offer both, not the folders' alone.
  it("is 400 sort.error.unknownField whose knownFields hold the folder and the file fields", async () => {
    const res = await lib.http.get("/api/v2/file/view/summary", { token: t.viewer.token, query: { sort: "nosuch,asc" } });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ key: "sort.error.unknownField", details: { parameter: "sort", field: "nosuch" } });
    const known: string[] = res.body.details.knownFields;
    for (const field of ["parentId", "fileCount", "size", "creator.email", "name"]) expect(known).toContain(field);
    expect(new Set(known).size).toBe(known.length);
    expect(res.body.message).toContain("size");
    // Fields of either list still sort it.
    for (const sort of ["size,desc", "parentId,asc", "creator.email,asc"]) {
      const ok = await lib.http.get("/api/v2/file/view/summary", { token: t.viewer.token, query: { sort } });
      expect(ok.status, `${sort}: ${ok.text}`).toBe(200);
    }
  });
});

describe("'Also accepted by many lists: `quickFilterId` (saved filter ...)': a list that applies none says so", () => {
  it("GET /api/v2/fileFolder with the id of a real FILE quick filter: 400 saying the list applies no quick filter, not that the id is unknown", async () => {
    const res = await lib.http.get("/api/v2/fileFolder", { token: t.viewer.token, query: { quickFilterId } });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ key: "quickFilter.error.notFound", details: { quickFilterId } });
    expect(res.body.message).toBe(`This list applies no quick filter: quickFilterId '${quickFilterId}' cannot be used here`);
    // The file list applies it.
    expect((await lib.http.get("/api/v2/file", { token: t.viewer.token, query: { quickFilterId } })).status).toBe(200);
  });
});
