// Edge input a demanding API consumer sends (huge numbers, negative pixels, empty
// bodies, ids no row can have): each is a documented 400/404 with the error body,
// never a 500 and never a row or a blob written. Over HTTP through the gateway.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";
import { widgetZip } from "./support/custom-apps-zip.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let t: UploadTenant;

beforeAll(async () => {
  env = await startUploadPlatform("edge_input_audit");
  t = await env.tenant();
}, 60_000);
afterAll(() => env?.close());

const http = () => env.platform.http;
const fileCount = async () => Number((await env.platform.knexOf("media")("file").where({ customer_id: t.id }).count<{ count: string }[]>("* as count"))[0].count);
const sessionCount = async () => Number((await env.platform.knexOf("media")("upload_session").where({ customer_id: t.id }).count<{ count: string }[]>("* as count"))[0].count);

function expectError(res: { status: number; text: string; body: any }, status: number, key: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({ status, key });
  expect(Object.keys(res.body).sort()).toEqual(["details", "error", "key", "message", "status"]);
}

async function uploadOne(query: Record<string, string | number> = {}, data = png(3, 2)) {
  return http().post("/api/file", { token: t.editor.token, query, body: multipart([{ name: "files[]", filename: "f.png", type: "image/png", data }]) });
}

describe("validity bounds out of range", { timeout: 30_000 }, () => {
  // "validFrom, validTo | integer | validity window" and "timestamps are integers (Unix time,
  // milliseconds ...)": a bound no timestamp column holds is a 400, like PUT /api/file/{id}.
  it("chunked init answers 400 for a bound beyond what a timestamp holds, and opens no session", async () => {
    const before = await sessionCount();
    const init = (bound: string) =>
      http().post("/api/v2/file/upload/init", { token: t.editor.token, body: `{"name":"v.png","size":68,"totalChunks":1,"validFrom":${bound}}`, headers: { "content-type": "application/json" } });
    // As JSON numbers past 2^53 the gateway refuses them (their digits are already lost) ...
    for (const bound of ["100000000000000000000", "9223372036854775807"]) expectError(await init(bound), 400, "request.error.invalid");
    // ... as int64 strings they reach media, which refuses what no Unix-ms bound can be.
    expectError(await init('"9223372036854775807"'), 400, "file.error.invalidValidity");
    expect(await sessionCount()).toBe(before);
  });

  it("simple upload answers 400 file.error.invalidValidity for validFrom/validTo at int64 max, and stores no file", async () => {
    const before = await fileCount();
    expectError(await uploadOne({ validFrom: "9223372036854775807" }), 400, "file.error.invalidValidity");
    expectError(await uploadOne({ validTo: "9223372036854775807" }), 400, "file.error.invalidValidity");
    expect(await fileCount()).toBe(before);
  });

  // "Set validity on many files | POST /api/v2/file/validity/set | APPROVER (C) | query search, validFrom, validTo (int64)".
  it("bulk validity set answers 400 for a bound at int64 max and changes nothing", async () => {
    const file = (await uploadOne({ validFrom: 1000, validTo: 2000 })).body[0];
    const res = await http().post("/api/v2/file/validity/set", { token: t.owner.token, query: { search: `id=${file.id}`, validTo: "9223372036854775807" } });
    expectError(res, 400, "file.error.invalidValidity");
    const row = await env.platform.knexOf("media")("file").where({ id: file.id }).first("valid_from", "valid_to");
    expect([Number(row.valid_from), Number(row.valid_to)]).toEqual([1000, 2000]);
  });
});

describe("client width and height", { timeout: 30_000 }, () => {
  // "width, height | integer | pixels; recalculated by the server when missing": a negative
  // pixel count is refused (400), 0 counts as missing and is recalculated from the image.
  it("simple upload refuses negative width/height (400) and recalculates 0", async () => {
    const before = await fileCount();
    expectError(await uploadOne({ width: -5, height: 2 }), 400, "upload.error.invalidDimension");
    expectError(await uploadOne({ width: 3, height: -1 }), 400, "upload.error.invalidDimension");
    expect(await fileCount()).toBe(before);
    const zero = await uploadOne({ width: 0, height: 0 }, png(7, 5));
    expect(zero.status, zero.text).toBe(200);
    expect(zero.body[0]).toMatchObject({ width: 7, height: 5 });
  });

  it("chunked init refuses negative width/height (400) and complete recalculates 0", async () => {
    const before = await sessionCount();
    const bad = await http().post("/api/v2/file/upload/init", { token: t.editor.token, body: { name: "w.png", size: 68, totalChunks: 1, width: -1, height: -7 } });
    expectError(bad, 400, "upload.error.invalidDimension");
    expect(await sessionCount()).toBe(before);
    const image = png(9, 4);
    const init = await http().post("/api/v2/file/upload/init", { token: t.editor.token, body: { name: "z.png", size: image.length, totalChunks: 1, width: 0, height: 0 } });
    expect(init.status, init.text).toBe(200);
    const part = await http().put(`/api/v2/file/upload/${init.body.uploadId}/part/1`, { token: t.editor.token, body: image, headers: { "content-type": "application/octet-stream" } });
    expect(part.status, part.text).toBe(200);
    const done = await http().post(`/api/v2/file/upload/${init.body.uploadId}/complete`, { token: t.editor.token });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ width: 9, height: 4 });
  });
});

describe("empty bodies", { timeout: 30_000 }, () => {
  // "The server never generates thumbnails. The client must supply a thumbnail for every
  // file of every type": a zero-byte thumbnail is refused and the current one is kept.
  it("PUT /api/v2/file/upload/{fileId}/thumbnail with an empty body is 400 and keeps the thumbnail", async () => {
    const file = (await uploadOne()).body[0];
    const good = await http().put(`/api/v2/file/upload/${file.id}/thumbnail`, { token: t.editor.token, body: png(2, 2), headers: { "content-type": "image/png" } });
    expect(good.status, good.text).toBe(204);
    const kept = (await env.platform.knexOf("media")("file").where({ id: file.id }).first("thumbnail_key")).thumbnail_key;
    expect(kept).toBeTruthy();
    const empty = await http().put(`/api/v2/file/upload/${file.id}/thumbnail`, { token: t.editor.token, body: new Uint8Array(0), headers: { "content-type": "image/png" } });
    expectError(empty, 400, "upload.error.emptyBody");
    expect((await env.platform.knexOf("media")("file").where({ id: file.id }).first("thumbnail_key")).thumbnail_key).toBe(kept);
  });

  // "Chunked upload total size | 1 byte to 10 GB": the simple upload holds files to the same
  // lower bound; an empty files[] or previews[] part is 400 and nothing is stored.
  it("POST /api/file with an empty file or an empty preview is 400 and stores nothing", async () => {
    const before = await fileCount();
    expectError(await uploadOne({}, Buffer.alloc(0)), 400, "upload.error.emptyBody");
    const emptyPreview = await http().post("/api/file", {
      token: t.editor.token,
      body: multipart([
        { name: "files[]", filename: "p.png", type: "image/png", data: png(3, 2) },
        { name: "previews[]", filename: "p.png", type: "image/png", data: Buffer.alloc(0) },
      ]),
    });
    expectError(emptyPreview, 400, "upload.error.emptyBody");
    expect(await fileCount()).toBe(before);
  });
});

describe("private app ids no row can have", { timeout: 30_000 }, () => {
  // Private app "id | integer | numeric id": an id beyond any stored one is an unknown app (404
  // customApp.error.notFound), on every /api/customApp/myApps/{id} operation, never a 500.
  it("update, delete, upload and download answer 404 for ids up to int64 max, 400 beyond it", async () => {
    const zip = await widgetZip({ name: "edge-widget", version: "1" });
    // Beyond int64 the gateway refuses the path parameter itself; up to it, media finds no app.
    for (const [id, status, key] of [
      ["9007199254740993", 404, "customApp.error.notFound"],
      ["9223372036854775807", 404, "customApp.error.notFound"],
      ["100000000000000000000", 400, "request.error.invalid"],
    ] as const) {
      const base = `/api/customApp/myApps/${id}`;
      expectError(await http().put(base, { token: t.owner.token, body: { name: "x" } }), status, key);
      expectError(await http().delete(base, { token: t.owner.token }), status, key);
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(zip)], { type: "application/zip" }), "p.zip");
      expectError(await http().post(`${base}/upload`, { token: t.owner.token, body: form }), status, key);
      const download = await http().get(`${base}/download`, { token: t.owner.token });
      expect(download.status, download.text).toBe(status);
      expect(download.body).toMatchObject({ status, key });
    }
  });
});

describe("the file list's type filter", () => {
  // "Library filter fields: files: ... `type`, `name`": the kinds are a closed set, so an unknown
  // one is a mistake the caller hears about (400 naming the kinds), not an empty page.
  it("search=type=<unknown kind> is 400 search.error.invalid listing the kinds; a known kind filters", async () => {
    const res = await http().get("/api/v2/file", { token: t.editor.token, query: { search: "type=BOGUS" } });
    expectError(res, 400, "search.error.invalid");
    expect(res.body.message).toContain("IMAGE, VIDEO, AUDIO, FONT, DOCUMENT, DATA, OTHER");
    const ok = await http().get("/api/v2/file", { token: t.editor.token, query: { search: "type=IMAGE" } });
    expect(ok.status, ok.text).toBe(200);
  });
});
