// Thumbnails and previews of any image type, over HTTP through the gateway (filesystem store).
// Document 1: "Upload thumbnail | PUT /api/v2/file/upload/{fileId}/thumbnail | EDITOR (C) | body
// image/* binary"; POST /api/file "previews[] (binary thumbnails ...)"; "The server never
// generates thumbnails. The client must supply a thumbnail for every file of every type."
// A thumbnail is served under the type it was sent as (its blob key carries it), its bytes are
// checked as a file's are for the types the platform knows, and a refused one leaves nothing.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { assertValidKey } from "@signage/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentTypeOfKey, thumbnailBlobKey } from "../src/storage/blob-keys.js";
import { jpeg, multipart, pathOf, png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let t: UploadTenant;

beforeAll(async () => {
  env = await startUploadPlatform("media_thumbnail_types");
  t = await env.tenant();
}, 60_000);
afterAll(() => env?.close());

const http = () => env.platform.http;
const knex = () => env.platform.knexOf("media");

/** First bytes of real files of these types (the server only stores them). */
const AVIF = Buffer.concat([Buffer.from([0, 0, 0, 0x1c]), Buffer.from("ftypavif\0\0\0\0avifmif1miaf")]);
const BMP = Buffer.concat([Buffer.from("BM"), Buffer.alloc(52, 0)]);
const ICO = Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0]);
const TIFF = Buffer.from([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)</script><rect width="4" height="4"/></svg>');

async function newFile(name = "doc.pdf"): Promise<{ id: string }> {
  const res = await http().post("/api/file", { token: t.editor.token, query: { parentId: t.rootId }, body: multipart([{ name: "files[]", filename: name, type: "application/pdf", data: "%PDF-1.4" }]) });
  expect(res.status, res.text).toBe(200);
  return res.body[0];
}

const putThumbnail = (fileId: string, body: Buffer, type: string) => http().put(`/api/v2/file/upload/${fileId}/thumbnail`, { token: t.editor.token, body, headers: { "content-type": type } });

async function thumbnailOf(fileId: string): Promise<Response> {
  const listed = await http().get("/api/v2/file", { token: t.viewer.token, query: { search: `id=${fileId}`, select: "*,thumbnail" } });
  expect(listed.status, listed.text).toBe(200);
  const url = listed.body.content[0].thumbnail;
  expect(url, "the file has a thumbnail").toBeTruthy();
  return fetch(new URL(pathOf(url), env.platform.url));
}

/** Every stored thumbnail blob of the tenant. */
const storedThumbnails = async () => (await readdir(join(env.blobDir, `thumbnails/${t.id}`)).catch(() => [] as string[])).sort();
const intents = async () => (await knex()("blob_intent").where({ customer_id: t.id }).select("key")).map((r: { key: string }) => r.key);

describe("'body image/* binary': a thumbnail of any image type is served as that type", { timeout: 60_000 }, () => {
  it.each([
    ["image/avif", AVIF],
    ["image/bmp", BMP],
    ["image/x-icon", ICO],
    ["image/vnd.microsoft.icon", ICO],
    ["image/tiff", TIFF],
    ["image/apng", png(2, 2)],
  ])("PUT .../thumbnail as %s: 204, downloaded with that Content-Type", async (type, bytes) => {
    const file = await newFile();
    const put = await putThumbnail(file.id, bytes, type);
    expect(put.status, put.text).toBe(204);
    const res = await thumbnailOf(file.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(type);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("'previews[] (binary thumbnails ...)': a preview as image/avif is served as image/avif", async () => {
    const res = await http().post("/api/file", {
      token: t.editor.token,
      query: { parentId: t.rootId },
      body: multipart([
        { name: "files[]", filename: "clip.png", type: "image/png", data: png(3, 3) },
        { name: "previews[]", filename: "clip.png", type: "image/avif", data: AVIF },
      ]),
    });
    expect(res.status, res.text).toBe(200);
    const thumb = await thumbnailOf(res.body[0].id);
    expect(thumb.headers.get("content-type")).toBe("image/avif");
  });

  it("a type the table knows keeps its extension (image/jpg is image/jpeg), and an SVG thumbnail is served with the stored-content CSP and nosniff", async () => {
    const file = await newFile();
    expect((await putThumbnail(file.id, jpeg(2, 2), "image/jpg")).status).toBe(204);
    const row = await knex()("file").where({ id: file.id }).first("thumbnail_key");
    expect(row.thumbnail_key).toMatch(/\.jpg$/);
    expect((await thumbnailOf(file.id)).headers.get("content-type")).toBe("image/jpeg");
    // SVG is accepted (it is a supported file type, too): opened at its URL it runs no script.
    expect((await putThumbnail(file.id, SVG, "image/svg+xml")).status).toBe(204);
    const svg = await thumbnailOf(file.id);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    expect(svg.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(svg.headers.get("content-security-policy")).not.toContain("script-src");
    expect(svg.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("the 415 for a type that is no image says any image/* is accepted; a malformed image type is refused too", async () => {
    const file = await newFile();
    const text = await putThumbnail(file.id, Buffer.from("hello"), "text/plain");
    expect(text.status).toBe(415);
    expect(text.body.key).toBe("media.error.unsupportedMediaType");
    expect(text.body.message).toContain("any well-formed image/<subtype>");
    expect(text.body.details.supported).toEqual(["image/*"]);
    const bare = await putThumbnail(file.id, png(1, 1), "image/");
    expect(bare.status, bare.text).toBe(415);
    expect(bare.body.details.supported).toEqual(["image/*"]);
  });
});

describe("thumbnail keys", () => {
  it("carry any image subtype in key characters and read back exactly; keys without one stay octet-stream", () => {
    for (const type of ["image/avif", "image/x-icon", "image/vnd.microsoft.icon", "image/x-portable-anymap", "image/vnd.adobe.photoshop", "image/x-foo+xml", "image/svg", "image/mp4", "image/pdf", "image/png", "image/svg+xml", "image/a!#$&^_b"]) {
      const key = thumbnailBlobKey(7, "01890000-0000-7000-8000-000000000000", type);
      expect(() => assertValidKey(key), key).not.toThrow();
      expect(contentTypeOfKey(key), key).toBe(type);
    }
    // Written before thumbnails carried their subtype: no extension, nothing to read.
    expect(contentTypeOfKey("thumbnails/7/01890000-0000-7000-8000-000000000000-0a1b2c3d")).toBe("application/octet-stream");
    expect(contentTypeOfKey("thumbnails/7/01890000-0000-7000-8000-000000000000-0a1b2c3d.png")).toBe("image/png");
    // Only thumbnails may be of a type outside the table.
    expect(contentTypeOfKey("files/7/01890000-0000-7000-8000-000000000000.avif")).toBe("application/octet-stream");
  });
});

describe("thumbnail bytes are checked as a file's are, for the types the platform knows", { timeout: 60_000 }, () => {
  it("PUT .../thumbnail: garbage as image/png, and a PNG as image/jpeg, are 415 and leave the old thumbnail, no blob, no intent", async () => {
    const file = await newFile();
    expect((await putThumbnail(file.id, png(2, 2), "image/png")).status).toBe(204);
    const before = await knex()("file").where({ id: file.id }).first("thumbnail_key");
    const blobsBefore = await storedThumbnails();
    const garbage = await putThumbnail(file.id, Buffer.from("this is no png at all"), "image/png");
    expect(garbage.status, garbage.text).toBe(415);
    expect(garbage.body.key).toBe("media.error.unsupportedMediaType");
    expect(garbage.body.message).toContain("the thumbnail");
    const relabelled = await putThumbnail(file.id, png(2, 2), "image/jpeg");
    expect(relabelled.status, relabelled.text).toBe(415);
    expect(relabelled.body.details).toMatchObject({ contentType: "image/jpeg", detectedContentType: "image/png" });
    expect(await knex()("file").where({ id: file.id }).first("thumbnail_key")).toEqual(before);
    expect(await storedThumbnails()).toEqual(blobsBefore);
    expect(await intents()).toEqual([]);
    const served = await thumbnailOf(file.id);
    expect(served.headers.get("content-type")).toBe("image/png");
  });

  it("previews[]: garbage as image/jpeg is 415; no file row, no blob, no intent", async () => {
    const blobsBefore = await storedThumbnails();
    const res = await http().post("/api/file", {
      token: t.editor.token,
      query: { parentId: t.rootId },
      body: multipart([
        { name: "files[]", filename: "fake-preview.png", type: "image/png", data: png(3, 3) },
        { name: "previews[]", filename: "fake-preview.png", type: "image/jpeg", data: "not a jpeg" },
      ]),
    });
    expect(res.status, res.text).toBe(415);
    expect(res.body.key).toBe("media.error.unsupportedMediaType");
    expect(res.body.details).toMatchObject({ contentType: "image/jpeg", filename: "fake-preview.png" });
    expect(await knex()("file").where({ customer_id: t.id, name: "fake-preview.png" }).first()).toBeUndefined();
    expect(await storedThumbnails()).toEqual(blobsBefore);
    expect(await intents()).toEqual([]);
  });

  it("a type without a known signature passes whatever its bytes (image/avif)", async () => {
    const file = await newFile();
    const put = await putThumbnail(file.id, Buffer.from("opaque bytes"), "image/avif");
    expect(put.status, put.text).toBe(204);
  });
});
