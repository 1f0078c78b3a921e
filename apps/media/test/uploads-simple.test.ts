// Simple upload (POST /api/file), thumbnails and downloads, over HTTP through
// the gateway against PostgreSQL and the filesystem blob store.
import { readdir } from "node:fs/promises";
import { crc32 } from "@node-rs/crc32";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jpeg, multipart, pathOf, png, startUploadPlatform, streamedMultipart, type UploadTenant } from "./uploads-support.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let t: UploadTenant;

beforeAll(async () => {
  env = await startUploadPlatform("uploads_simple");
  t = await env.tenant();
}, 60_000);
afterAll(() => env?.close());

function post(token: string, form: FormData, query: Record<string, string | number | boolean> = {}) {
  return env.platform.http.post("/api/file", { token, body: form, query });
}

async function fileRows(customerId: number) {
  return env.platform.knexOf("media")("file").where({ customer_id: customerId });
}

describe("simple upload POST /api/file", { timeout: 30_000 }, () => {
  it("stores the file: server sets size, CRC32 crcCheckSum, createDate, creator; width/height recalculated from the PNG header; preview becomes the thumbnail", async () => {
    const image = png(37, 21);
    const preview = png(4, 4);
    const before = Date.now();
    const res = await post(t.editor.token, multipart([
      { name: "files[]", filename: "logo.png", type: "image/png", data: image },
      { name: "previews[]", filename: "logo.png", type: "image/png", data: preview },
    ]), { tags: "a,b", validFrom: 1000, validTo: 2000, muted: true, parentId: t.rootId });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toHaveLength(1);
    const file = res.body[0];
    expect(file).toMatchObject({ name: "logo.png", contentType: "image/png", size: image.length, width: 37, height: 21, crcCheckSum: (crc32(image) >>> 0).toString(16).padStart(8, "0"), creatorEmail: t.editor.email, fileFolderId: t.rootId, tags: ["a", "b"], validFrom: 1000, validTo: 2000, muted: true, customerId: t.id });
    expect(file.createDate).toBeGreaterThanOrEqual(before - 1000);
    expect(file.creator).toMatchObject({ email: t.editor.email });
    // "location: download URL", "thumbnail: thumbnail URL": signed, no token needed.
    const download = await env.platform.http.get(pathOf(file.location));
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("image/png");
    const bytes = Buffer.from(await (await fetch(new URL(pathOf(file.location), env.platform.url))).arrayBuffer());
    expect(bytes.equals(image)).toBe(true);
    const thumb = Buffer.from(await (await fetch(new URL(pathOf(file.thumbnail), env.platform.url))).arrayBuffer());
    expect(thumb.equals(preview)).toBe(true);
    // "lastPreviewUploadTime | integer": a preview sent with the file is its first preview upload.
    const listed = await env.platform.http.get("/api/v2/file", { token: t.viewer.token, query: { search: `id=${file.id}`, select: "*" } });
    expect(listed.body.content[0].lastPreviewUploadTime).toBeGreaterThanOrEqual(before);
  });

  it("downloads honour Range (206, Content-Range) and refuse a tampered signature (403)", async () => {
    const image = png(64, 64);
    const res = await post(t.editor.token, multipart([{ name: "files[]", filename: "r.png", type: "image/png", data: image }]));
    const url = new URL(pathOf(res.body[0].location), env.platform.url);
    const partial = await fetch(url, { headers: { range: "bytes=10-19" } });
    expect(partial.status).toBe(206);
    expect(partial.headers.get("content-range")).toBe(`bytes 10-19/${image.length}`);
    expect(Buffer.from(await partial.arrayBuffer()).equals(image.subarray(10, 20))).toBe(true);
    const suffix = await fetch(url, { headers: { range: "bytes=-5" } });
    expect(Buffer.from(await suffix.arrayBuffer()).equals(image.subarray(image.length - 5))).toBe(true);
    const beyond = await fetch(url, { headers: { range: `bytes=${image.length + 10}-` } });
    expect(beyond.status).toBe(416);
    url.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 1));
    const tampered = await fetch(url);
    expect(tampered.status).toBe(403);
    expect(await tampered.json()).toMatchObject({ key: "storage.error.invalidSignature" });
  });

  it("several files in one request, each preview matched by file name", async () => {
    const res = await post(t.editor.token, multipart([
      { name: "files[]", filename: "one.json", type: "application/json", data: '{"a":1}' },
      { name: "files[]", filename: "two.pdf", type: "application/pdf", data: "%PDF-1.4 ..." },
      // A real JPEG: a preview's bytes are checked against its declared type (thumbnail-types.test.ts).
      { name: "previews[]", filename: "two.pdf", type: "image/jpeg", data: jpeg(2, 2) },
    ]));
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((f: { name: string }) => f.name)).toEqual(["one.json", "two.pdf"]);
    expect(res.body[0].thumbnail ?? "").toBe("");
    expect(res.body[1].thumbnail).toMatch(/\/storage\/v1\/blobs\//);
  });

  it("\"each preview filename must equal its file's filename\": a mismatch is refused with 400 and nothing is kept", async () => {
    const before = (await fileRows(t.id)).length;
    const res = await post(t.editor.token, multipart([
      { name: "files[]", filename: "a.png", type: "image/png", data: png(2, 2) },
      { name: "previews[]", filename: "b.png", type: "image/png", data: png(1, 1) },
    ]));
    expect(res.status).toBe(400);
    expect(res.body.key).toBe("upload.error.previewNameMismatch");
    expect((await fileRows(t.id)).length).toBe(before);
  });

  it("\"each preview filename must equal its file's filename\": files named alike pair with their previews in order and never share one, so deleting one keeps the other's thumbnail", async () => {
    const [first, second] = [png(3, 3), png(5, 5)];
    const res = await post(t.editor.token, multipart([
      { name: "files[]", filename: "twin.png", type: "image/png", data: png(2, 2) },
      { name: "files[]", filename: "twin.png", type: "image/png", data: png(2, 3) },
      { name: "previews[]", filename: "twin.png", type: "image/png", data: first },
      { name: "previews[]", filename: "twin.png", type: "image/png", data: second },
    ]));
    expect(res.status, res.text).toBe(200);
    const thumbOf = async (file: { thumbnail: string }) => Buffer.from(await (await fetch(new URL(pathOf(file.thumbnail), env.platform.url))).arrayBuffer());
    expect((await thumbOf(res.body[0])).equals(first)).toBe(true);
    expect((await thumbOf(res.body[1])).equals(second)).toBe(true);
    expect((await env.platform.http.delete(`/api/file/${res.body[0].id}`, { token: t.editor.token })).status).toBe(204);
    const kept = await env.platform.http.get(pathOf(res.body[1].thumbnail));
    expect(kept.status).toBe(200);

    // One preview for two files named alike: the first takes it, the second has none; a third preview of that name matches no file.
    const one = await post(t.editor.token, multipart([
      { name: "files[]", filename: "pair.png", type: "image/png", data: png(2, 2) },
      { name: "files[]", filename: "pair.png", type: "image/png", data: png(2, 3) },
      { name: "previews[]", filename: "pair.png", type: "image/png", data: first },
    ]));
    expect(one.status, one.text).toBe(200);
    expect(one.body[0].thumbnail).toMatch(/\/storage\/v1\/blobs\//);
    expect(one.body[1].thumbnail ?? "").toBe("");
    const extra = await post(t.editor.token, multipart([
      { name: "files[]", filename: "solo.png", type: "image/png", data: png(2, 2) },
      { name: "previews[]", filename: "solo.png", type: "image/png", data: first },
      { name: "previews[]", filename: "solo.png", type: "image/png", data: second },
    ]));
    expect(extra.status).toBe(400);
    expect(extra.body.key).toBe("upload.error.previewNameMismatch");
  });

  it("\"Upload file(s) | POST `/api/file` | multipart/form-data\": a body that is no form (JSON, raw bytes) is 415 naming multipart/form-data, and nothing is kept", async () => {
    const before = (await fileRows(t.id)).length;
    for (const [type, body] of [["application/json", JSON.stringify({ name: "a.png" })], ["image/png", png(2, 2)]] as const) {
      const res = await env.platform.http.post("/api/file", { token: t.editor.token, body, headers: { "content-type": type } });
      expect(res.status, `${type}: ${res.text}`).toBe(415);
      expect(res.body).toMatchObject({ key: "media.error.unsupportedMediaType", details: { contentType: type, supported: ["multipart/form-data"] } });
    }
    expect((await fileRows(t.id)).length).toBe(before);
  });

  it("\"contentType: MIME type, detected by the client; the server validates\": types outside the supported kinds get 415", async () => {
    for (const [type, name] of [["text/plain", "a.txt"], ["application/zip", "a.zip"], ["application/octet-stream", "a.exe"]]) {
      const res = await post(t.editor.token, multipart([{ name: "files[]", filename: name, type, data: "xx" }]));
      expect(res.status, `${type}: ${res.text}`).toBe(415);
      expect(res.body.key).toBe("media.error.unsupportedMediaType");
    }
    // A generic type is read from the extension of a supported kind.
    const ok = await post(t.editor.token, multipart([{ name: "files[]", filename: "clip.webm", type: "application/octet-stream", data: "webm" }]));
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body[0].contentType).toBe("video/webm");
  });

  it("\"contentType: MIME type, detected by the client; the server validates\" against the kinds table, which is by extension: a declared type of another kind than the name is 415 and nothing is kept", async () => {
    const before = (await fileRows(t.id)).length;
    for (const [type, name] of [["image/png", "evil.exe"], ["image/svg+xml", "page.html"], ["video/mp4", "still.png"], ["application/pdf", "data.json"], ["video/mp4", "clip.jfif"], ["image/svg+xml", "page.html "], ["image/svg+xml", "page.html."], ["image/png", "evil.exe;"], ["image/png", "evil.exe\u200b"]]) {
      const res = await post(t.editor.token, multipart([{ name: "files[]", filename: name, type, data: png(2, 2) }]));
      expect(res.status, `${type} ${name}: ${res.text}`).toBe(415);
      expect(res.body).toMatchObject({ key: "media.error.unsupportedMediaType", details: { filename: name } });
      expect(res.body.message).toContain(`does not match the file name '${name}'`);
    }
    // One bad file refuses the whole call, the good one before it included.
    const mixed = await post(t.editor.token, multipart([
      { name: "files[]", filename: "fine.png", type: "image/png", data: png(2, 2) },
      { name: "files[]", filename: "evil.exe", type: "image/png", data: png(2, 2) },
    ]));
    expect(mixed.status).toBe(415);
    expect((await fileRows(t.id)).length).toBe(before);
    // The same kind is a match (the client detected a PNG saved as .jpg); extensions ignore case.
    const sameKind = await post(t.editor.token, multipart([{ name: "files[]", filename: "Photo.JPG", type: "image/png", data: png(2, 2) }]));
    expect(sameKind.status, sameKind.text).toBe(200);
    expect(sameKind.body[0].contentType).toBe("image/png");
    // A name without an extension (a nameless browser Blob is sent as "blob") leaves the declared
    // type to decide, and other names of the same formats (.jfif) name their kind.
    for (const [type, name] of [["image/png", "blob"], ["image/png", "Summer campaign"], ["image/jpeg", "Report v1.2"], ["image/jpeg", "photo.jfif"]]) {
      const res = await post(t.editor.token, multipart([{ name: "files[]", filename: name, type, data: type === "image/png" ? png(2, 2) : jpeg(2, 2) }]));
      expect(res.status, `${type} ${name}: ${res.text}`).toBe(200);
      expect(res.body[0].contentType).toBe(type);
    }
  });

  it("\"contentType: MIME type, detected by the client; the server validates\" against the bytes too: a PNG, JPEG, GIF or WebP declaration must be what the file starts as, and such a file must be declared as what it is (415, naming what the bytes are, nothing kept); other kinds are not inspected; \"width, height: recalculated by the server when missing\" from the bytes", async () => {
    const before = (await fileRows(t.id)).length;
    const gif = Buffer.concat([Buffer.from("GIF89a", "latin1"), Buffer.from([3, 0, 2, 0, 0, 0, 0]), Buffer.from([0x3b])]);
    for (const [type, name, data, detected] of [
      ["image/jpeg", "photo.jpg", png(4, 2), "image/png"],
      ["image/png", "photo.png", jpeg(4, 2), "image/jpeg"],
      ["image/webp", "photo.webp", gif, "image/gif"],
      ["video/mp4", "clip.mp4", png(4, 2), "image/png"],
      ["image/png", "noise.png", Buffer.from("not an image at all"), undefined],
      ["image/gif", "noise.gif", Buffer.alloc(64, 7), undefined],
    ] as const) {
      const res = await post(t.editor.token, multipart([{ name: "files[]", filename: name, type, data }]));
      expect(res.status, `${type} ${name}: ${res.text}`).toBe(415);
      expect(res.body, `${type} ${name}`).toMatchObject({ key: "media.error.unsupportedMediaType", details: { contentType: type, filename: name, ...(detected ? { detectedContentType: detected } : {}) } });
      expect(res.body.details.detectedContentType).toBe(detected);
    }
    expect((await fileRows(t.id)).length).toBe(before);

    for (const [type, name, data, size] of [
      ["image/jpeg", "real.jpg", jpeg(40, 20), { width: 40, height: 20 }],
      ["image/gif", "real.gif", gif, { width: 3, height: 2 }],
      ["image/svg+xml", "drawing.svg", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="30" height="10"></svg>'), { width: 30, height: 10 }],
      ["audio/mpeg", "song.mp3", Buffer.alloc(32, 1), {}],
    ] as const) {
      const res = await post(t.editor.token, multipart([{ name: "files[]", filename: name, type, data }]));
      expect(res.status, `${type} ${name}: ${res.text}`).toBe(200);
      expect(res.body[0], `${type} ${name}`).toMatchObject({ contentType: type, ...size });
    }
  });

  it("\"Simple upload: below 200 MB per file\": a 200 MB file is refused with 413 upload.error.payloadTooLarge, streamed and not kept", async () => {
    const before = (await fileRows(t.id)).length;
    const { body, contentType } = streamedMultipart("files[]", "big.mp4", "video/mp4", 200 * 1024 * 1024);
    const res = await fetch(new URL("/api/file", env.platform.url), { method: "POST", body, headers: { authorization: `Bearer ${t.editor.token}`, "content-type": contentType }, duplex: "half" } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ status: 413, key: "upload.error.payloadTooLarge" });
    expect((await fileRows(t.id)).length).toBe(before);
    const stored = await readdir(`${env.blobDir}/files/${t.id}`).catch(() => []);
    expect(stored.some((n) => n.endsWith(".mp4"))).toBe(false);
  });

  it("507 when the tenant's storageSize would be exceeded", async () => {
    const small = await env.tenant();
    await env.setStorageSize(small.id, 5000);
    const first = await post(small.editor.token, multipart([{ name: "files[]", filename: "a.json", type: "application/json", data: "x".repeat(3000) }]));
    expect(first.status, first.text).toBe(200);
    const second = await post(small.editor.token, multipart([{ name: "files[]", filename: "b.json", type: "application/json", data: "x".repeat(3000) }]));
    expect(second.status, second.text).toBe(507);
    expect(second.body.key).toBe("storage.error.insufficientStorage");
    expect((await fileRows(small.id)).length).toBe(1);
  });

  it("fileIdToReplace + removeOldFile: the new file takes the old one's place and the old one goes", async () => {
    const old = await post(t.editor.token, multipart([{ name: "files[]", filename: "old.png", type: "image/png", data: png(3, 3) }]));
    const oldId = old.body[0].id;
    const res = await post(t.editor.token, multipart([{ name: "files[]", filename: "new.png", type: "image/png", data: png(5, 5) }]), { fileIdToReplace: oldId, removeOldFile: true });
    expect(res.status, res.text).toBe(200);
    expect(await env.platform.knexOf("media")("file").where({ id: oldId }).first()).toBeUndefined();
    const missing = await post(t.editor.token, multipart([{ name: "files[]", filename: "n.png", type: "image/png", data: png(1, 1) }]), { fileIdToReplace: "01890000-0000-7000-8000-000000000000" });
    expect(missing.status).toBe(404);
  });

  it("width and height given in the query win; bad query values are 400 before any byte is stored", async () => {
    const res = await post(t.editor.token, multipart([{ name: "files[]", filename: "w.png", type: "image/png", data: png(9, 9) }]), { width: 1920, height: 1080 });
    expect(res.body[0]).toMatchObject({ width: 1920, height: 1080 });
    const bad = await post(t.editor.token, multipart([{ name: "files[]", filename: "w.png", type: "image/png", data: png(9, 9) }]), { validFrom: 5000, validTo: 10 });
    expect(bad.status).toBe(400);
    const teams = await post(t.editor.token, multipart([{ name: "files[]", filename: "w.png", type: "image/png", data: png(9, 9) }]), { teamIds: "nope:maybe" });
    expect(teams.status).toBe(400);
  });

  it("a VIEWER is refused on writes (upload, thumbnail) with 403", async () => {
    const res = await post(t.viewer.token, multipart([{ name: "files[]", filename: "v.png", type: "image/png", data: png(1, 1) }]));
    expect(res.status).toBe(403);
    const file = (await post(t.editor.token, multipart([{ name: "files[]", filename: "x.png", type: "image/png", data: png(1, 1) }]))).body[0];
    const thumb = await env.platform.http.put(`/api/v2/file/upload/${file.id}/thumbnail`, { token: t.viewer.token, body: png(1, 1), headers: { "content-type": "image/png" } });
    expect(thumb.status).toBe(403);
  });

  it("thumbnail upload for any file id: image/* body replaces the thumbnail; other types 415; unknown file 404", async () => {
    const file = (await post(t.editor.token, multipart([{ name: "files[]", filename: "doc.pdf", type: "application/pdf", data: "%PDF" }]))).body[0];
    const thumbnail = png(8, 6);
    const put = await env.platform.http.put(`/api/v2/file/upload/${file.id}/thumbnail`, { token: t.editor.token, body: thumbnail, headers: { "content-type": "image/png" } });
    expect(put.status, put.text).toBe(204);
    const listed = await env.platform.http.get("/api/v2/file", { token: t.viewer.token, query: { search: `id=${file.id}`, select: "*,thumbnail" } });
    const url = listed.body.content[0].thumbnail;
    const bytes = Buffer.from(await (await fetch(new URL(pathOf(url), env.platform.url))).arrayBuffer());
    expect(bytes.equals(thumbnail)).toBe(true);
    expect(listed.body.content[0].lastPreviewUploadTime).toBeGreaterThan(0);
    const text = await env.platform.http.put(`/api/v2/file/upload/${file.id}/thumbnail`, { token: t.editor.token, body: "hello", headers: { "content-type": "text/plain" } });
    expect(text.status).toBe(415);
    // The 415 says what a thumbnail may be, not what files may be.
    expect(text.body.message).toContain("must be images (image/*)");
    expect(text.body.details.supported.every((type: string) => type.startsWith("image/"))).toBe(true);
    const unknown = await env.platform.http.put(`/api/v2/file/upload/01890000-0000-7000-8000-000000000000/thumbnail`, { token: t.editor.token, body: thumbnail, headers: { "content-type": "image/png" } });
    expect(unknown.status).toBe(404);
  });

  it("thumbnail upload as a form: the first file part is the image, whatever plain fields come before it", async () => {
    const file = (await post(t.editor.token, multipart([{ name: "files[]", filename: "notes.pdf", type: "application/pdf", data: "%PDF" }]))).body[0];
    const thumbnail = png(9, 7);
    const form = new FormData();
    form.append("description", "cover");
    form.append("file", new Blob([thumbnail], { type: "image/png" }), "cover.png");
    const put = await env.platform.http.put(`/api/v2/file/upload/${file.id}/thumbnail`, { token: t.editor.token, body: form });
    expect(put.status, put.text).toBe(204);
    const listed = await env.platform.http.get("/api/v2/file", { token: t.viewer.token, query: { search: `id=${file.id}`, select: "*,thumbnail" } });
    const bytes = Buffer.from(await (await fetch(new URL(pathOf(listed.body.content[0].thumbnail), env.platform.url))).arrayBuffer());
    expect(bytes.equals(thumbnail)).toBe(true);
    // A form with fields only has no image.
    const fieldsOnly = new FormData();
    fieldsOnly.append("description", "none");
    const empty = await env.platform.http.put(`/api/v2/file/upload/${file.id}/thumbnail`, { token: t.editor.token, body: fieldsOnly });
    expect(empty.status, empty.text).toBe(400);
    expect(empty.body.key).toBe("upload.error.emptyBody");
  });
});
