// Review of the simple upload POST /api/file (and the thumbnail upload sharing its blob writer),
// over HTTP through the gateway: fixes for contract violations found probing it.
import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let t: UploadTenant;

beforeAll(async () => {
  env = await startUploadPlatform("upload_review");
  t = await env.tenant();
}, 60_000);
afterAll(() => env?.close());

function post(token: string, body: FormData | Buffer, query: Record<string, string | number | boolean> = {}, headers: Record<string, string> = {}) {
  return env.platform.http.post("/api/file", { token, body, query, headers });
}

async function fileRows(customerId: number) {
  return env.platform.knexOf("media")("file").where({ customer_id: customerId });
}

/** A baseline JPEG's headers with an Exif APP1 segment (IFD0 holding only Orientation) before the frame header. */
function exifJpeg(width: number, height: number, orientation: number, order: "II" | "MM" = "MM"): Buffer {
  const tiff = Buffer.alloc(26);
  const u16 = (v: number, at: number) => (order === "II" ? tiff.writeUInt16LE(v, at) : tiff.writeUInt16BE(v, at));
  const u32 = (v: number, at: number) => (order === "II" ? tiff.writeUInt32LE(v, at) : tiff.writeUInt32BE(v, at));
  tiff.write(order, 0, "latin1");
  u16(42, 2);
  u32(8, 4);
  u16(1, 8); // one entry
  u16(0x0112, 10); // Orientation
  u16(3, 12); // SHORT
  u32(1, 14); // count
  u16(orientation, 18);
  u32(0, 22); // no next IFD
  const payload = Buffer.concat([Buffer.from("Exif\0\0", "latin1"), tiff]);
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]), payload]);
  const sof0 = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app1, sof0, Buffer.from([0xff, 0xd9])]);
}

const svg = (attributes: string, before = "") => `${before}<svg xmlns="http://www.w3.org/2000/svg" ${attributes}></svg>`;

describe("upload review fixes", { timeout: 60_000 }, () => {
  it("\"Other upload outcomes preserved by the service: 400, 401, 403, 404, 413, 415, 507\": a form cut off inside a file, preview or thumbnail part is a 400 (request.error.invalidMultipart), keeps nothing, and never surfaces as an uncaught exception (which ends the process)", async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on("uncaughtException", onUncaught);
    try {
      const head = (field: string, name: string, type: string) => Buffer.from(`--cut\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`);
      const form = { "content-type": "multipart/form-data; boundary=cut" };
      const before = (await fileRows(t.id)).length;
      for (const body of [
        Buffer.concat([head("files[]", "cut.json", "application/json"), Buffer.from('{"a":1}')]),
        Buffer.concat([head("files[]", "whole.json", "application/json"), Buffer.from("{}\r\n"), head("previews[]", "whole.json", "image/png"), png(2, 2)]),
      ]) {
        const res = await post(t.editor.token, body, {}, form);
        expect(res.status, res.text).toBe(400);
        expect(res.body).toMatchObject({ status: 400, key: "request.error.invalidMultipart" });
      }
      const file = (await post(t.editor.token, multipart([{ name: "files[]", filename: "doc.pdf", type: "application/pdf", data: "%PDF-1.4" }]))).body[0];
      const thumb = await env.platform.http.put(`/api/v2/file/upload/${file.id}/thumbnail`, { token: t.editor.token, body: Buffer.concat([head("file", "t.png", "image/png"), png(2, 2)]), headers: form });
      expect(thumb.status, thumb.text).toBe(400);
      expect(thumb.body.key).toBe("request.error.invalidMultipart");
      // The error event of the destroyed stream is emitted on a later tick.
      await new Promise((r) => setTimeout(r, 200));
      expect(uncaught).toEqual([]);
      expect((await fileRows(t.id)).length).toBe(before + 1);
      const stored = await readdir(`${env.blobDir}/files/${t.id}`);
      expect(stored.filter((n) => n.endsWith(".json"))).toEqual([]);
      expect(await readdir(`${env.blobDir}/thumbnails/${t.id}`).catch(() => [])).toEqual([]);
    } finally {
      process.off("uncaughtException", onUncaught);
    }
  });

  it("\"storageSize | long | bytes, null = unlimited\" with \"Other upload outcomes ...: 507\": an upload with fileIdToReplace and removeOldFile=true is measured without the file it removes (507 only when the final total exceeds storageSize)", async () => {
    const small = await env.tenant();
    await env.setStorageSize(small.id, 5000);
    const json = (name: string, n: number) => multipart([{ name: "files[]", filename: name, type: "application/json", data: `"${"x".repeat(n - 2)}"` }]);
    const old = await post(small.editor.token, json("old.json", 3000));
    expect(old.status, old.text).toBe(200);
    // Keeping the old file, 6000 bytes would be stored: 507, and nothing changes.
    const kept = await post(small.editor.token, json("new.json", 3000), { fileIdToReplace: old.body[0].id });
    expect(kept.status, kept.text).toBe(507);
    expect(kept.body).toMatchObject({ status: 507, key: "storage.error.insufficientStorage", details: { storageSize: 5000 } });
    // Removing it, 3000 bytes are stored in the end: within the 5000.
    const replaced = await post(small.editor.token, json("new.json", 3000), { fileIdToReplace: old.body[0].id, removeOldFile: true });
    expect(replaced.status, replaced.text).toBe(200);
    expect((await fileRows(small.id)).map((f) => [f.name, Number(f.size)])).toEqual([["new.json", 3000]]);
    const usage = await env.platform.knexOf("media")("storage_usage").where({ customer_id: small.id }).first();
    expect(Number(usage?.files_bytes ?? 0)).toBe(3000);
    // Still refused when even the final total would not fit (3000 removed, 5001 added).
    const tooBig = await post(small.editor.token, json("huge.json", 5001), { fileIdToReplace: replaced.body[0].id, removeOldFile: true });
    expect(tooBig.status, tooBig.text).toBe(507);
    expect((await fileRows(small.id)).map((f) => f.name)).toEqual(["new.json"]);
  });

  it("\"width, height | integer | pixels; recalculated by the server when missing\" and \"orientation | landscape, portrait or square (computed)\": a JPEG whose Exif Orientation turns it by 90° (5 to 8) is as wide as it is shown", async () => {
    for (const [orientation, order, size] of [
      [6, "MM", { width: 480, height: 640, orientation: "portrait" }],
      [8, "II", { width: 480, height: 640, orientation: "portrait" }],
      [5, "II", { width: 480, height: 640, orientation: "portrait" }],
      [1, "MM", { width: 640, height: 480, orientation: "landscape" }],
      [3, "II", { width: 640, height: 480, orientation: "landscape" }],
    ] as const) {
      const res = await post(t.editor.token, multipart([{ name: "files[]", filename: `exif-${orientation}.jpg`, type: "image/jpeg", data: exifJpeg(640, 480, orientation, order) }]));
      expect(res.status, res.text).toBe(200);
      expect(res.body[0], `orientation ${orientation} (${order})`).toMatchObject(size);
    }
    // Sizes the client gives still win.
    const given = await post(t.editor.token, multipart([{ name: "files[]", filename: "given.jpg", type: "image/jpeg", data: exifJpeg(640, 480, 6) }]), { width: 640, height: 480 });
    expect(given.body[0]).toMatchObject({ width: 640, height: 480 });
  });

  it("\"width, height | integer | pixels; recalculated by the server when missing\" for SVG: absolute units, one length with a viewBox, and never from a commented-out tag", async () => {
    for (const [name, text, size] of [
      ["cm.svg", svg('width="2.54cm" height="1in"'), { width: 96, height: 96 }],
      ["pt.svg", svg('width="72pt" height="36pt" viewBox="0 0 10 5"'), { width: 96, height: 48 }],
      ["mm.svg", svg('width="254mm" height="127MM"'), { width: 960, height: 480 }],
      ["width-only.svg", svg('width="150" viewBox="0 0 300 200"'), { width: 150, height: 100 }],
      ["height-only.svg", svg('height="50px" viewBox="0 0 300 200"'), { width: 75, height: 50 }],
      ["percent.svg", svg('width="100%" height="100%" viewBox="0 0 300 200"'), { width: 300, height: 200 }],
      ["commented.svg", svg('width="64" height="32"', '<?xml version="1.0"?>\n<!-- <svg width="1" height="1"> -->\n'), { width: 64, height: 32 }],
    ] as const) {
      const res = await post(t.editor.token, multipart([{ name: "files[]", filename: name, type: "image/svg+xml", data: text }]));
      expect(res.status, res.text).toBe(200);
      expect(res.body[0], name).toMatchObject(size);
    }
    // Relative units without a viewBox give no size (left missing, not guessed).
    const em = await post(t.editor.token, multipart([{ name: "files[]", filename: "em.svg", type: "image/svg+xml", data: svg('width="10em" height="5em"') }]));
    expect(em.status, em.text).toBe(200);
    expect(em.body[0].width).toBeUndefined();
  });

  it("\"width, height | integer\": a header claiming more pixels than an integer holds (PNG, SVG) is no size, not a 500", async () => {
    const before = (await fileRows(t.id)).length;
    const huge = png(1, 1);
    huge.writeUInt32BE(0xfffffff0, 16);
    for (const [name, type, data] of [
      ["huge.png", "image/png", huge],
      ["huge.svg", "image/svg+xml", svg('width="99999999999" height="10"')],
      ["huge-box.svg", "image/svg+xml", svg('viewBox="0 0 1e12 5"')],
    ] as const) {
      const res = await post(t.editor.token, multipart([{ name: "files[]", filename: name, type, data }]));
      expect(res.status, `${name}: ${res.text}`).toBe(200);
      expect(res.body[0].width, name).toBeUndefined();
      expect(res.body[0].height, name).toBeUndefined();
    }
    expect((await fileRows(t.id)).length).toBe(before + 3);
  });
});
