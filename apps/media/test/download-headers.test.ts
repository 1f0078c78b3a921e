// `location` downloads over HTTP through the gateway. Document 1 "File": "location |
// string | download URL (computed; request it in select)"; "Files are immutable and
// referenced by id." Where the seed is silent, RFC 9110/9111: a strong ETag for the
// immutable bytes (§8.8.3) so If-None-Match answers 304 (§13.1.2); Cache-Control
// max-age no longer than the signed URL lives (RFC 9111 §5.2.2.1); a HEAD (RFC 9110
// §9.3.2) ends the stream after the head, and the opened blob must be closed then.
import fs, { readdirSync, readlinkSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, pathOf, png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let t: UploadTenant;

beforeAll(async () => {
  env = await startUploadPlatform("media_download_headers");
  t = await env.tenant();
}, 60_000);
afterAll(() => env?.close());

async function upload(name: string): Promise<{ id: string; location: string; thumbnail: string }> {
  const res = await env.platform.http.post("/api/file", {
    token: t.editor.token,
    query: { parentId: t.rootId },
    body: multipart([
      { name: "files[]", filename: name, type: "image/png", data: png(4, 4) },
      { name: "previews[]", filename: name, type: "image/png", data: png(1, 1) },
    ]),
  });
  expect(res.status, res.text).toBe(200);
  return res.body[0];
}

/** Descriptors this process holds open on files of the blob store. */
const openBlobFds = () =>
  readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(env.blobDir);
    } catch {
      return false;
    }
  }).length;

describe("'location | download URL': validators, caching and HEAD", { timeout: 60_000 }, () => {
  it("RFC 9110 §8.8.3, §13.1.2: a strong ETag, the same on every request; If-None-Match with it answers 304 without a body", async () => {
    const { location } = await upload("etag.png");
    const url = new URL(pathOf(location), env.platform.url);
    const first = await fetch(url);
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[^"]+"$/);
    const ranged = await fetch(url, { headers: { range: "bytes=0-3" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("etag")).toBe(etag);
    await ranged.arrayBuffer();
    const again = await fetch(url, { headers: { "if-none-match": etag! } });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
  });

  it("RFC 9111 §5.2.2.1: max-age never reaches past the URL's `expires` (the URL is the cache key and stops working then); immutable bytes (RFC 8246)", async () => {
    const { location } = await upload("cache.png");
    const url = new URL(pathOf(location), env.platform.url);
    const expires = Number(url.searchParams.get("expires"));
    const res = await fetch(url);
    await res.arrayBuffer();
    const cc = res.headers.get("cache-control") ?? "";
    const maxAge = Number(/max-age=(\d+)/.exec(cc)?.[1]);
    expect(cc).toContain("immutable");
    expect(maxAge).toBeGreaterThan(0);
    expect(Date.now() + maxAge * 1000).toBeLessThanOrEqual(expires);
  });

  it("RFC 9110 §13.2.2: If-None-Match with the current tag answers 304 before reading anything (players revalidate all day; on S3 a HEAD, not a GET)", async () => {
    const { location } = await upload("revalidated.png");
    const url = new URL(pathOf(location), env.platform.url);
    const first = await fetch(url);
    await first.arrayBuffer();
    const etag = first.headers.get("etag")!;
    // Watch the store's reads: the filesystem store reads a blob through fs.createReadStream.
    const read: string[] = [];
    const createReadStream = fs.createReadStream;
    fs.createReadStream = ((path: fs.PathLike, options?: Parameters<typeof createReadStream>[1]) => {
      read.push(String(path));
      return createReadStream(path, options);
    }) as typeof fs.createReadStream;
    syncBuiltinESMExports();
    try {
      for (const method of ["GET", "HEAD"]) {
        const res = await fetch(url, { method, headers: { "if-none-match": `"other", ${etag}`, range: "bytes=0-3" } });
        expect(res.status, method).toBe(304);
        expect(res.headers.get("etag")).toBe(etag);
        expect(res.headers.get("cache-control")).toMatch(/^private, max-age=\d+, immutable$/);
        expect((await res.arrayBuffer()).byteLength).toBe(0);
      }
      expect(read.filter((path) => path.startsWith(env.blobDir))).toEqual([]);
      // A tag that does not match reads the bytes (and shows the watch sees reads).
      const changed = await fetch(url, { headers: { "if-none-match": '"other"' } });
      expect(changed.status).toBe(200);
      expect((await changed.arrayBuffer()).byteLength).toBeGreaterThan(0);
      expect(read.filter((path) => path.startsWith(env.blobDir))).toHaveLength(1);
    } finally {
      fs.createReadStream = createReadStream;
      syncBuiltinESMExports();
    }
  });

  it("RFC 9110 §9.3.2: HEAD answers the GET's headers and leaves no blob open (no descriptor leak per HEAD)", async () => {
    const { location } = await upload("head.png");
    const url = new URL(pathOf(location), env.platform.url);
    const before = openBlobFds();
    for (let i = 0; i < 20; i++) {
      const res = await fetch(url, { method: "HEAD" });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(openBlobFds() - before).toBeLessThan(5);
  });
});

// "location | download URL": a browser saving the download keeps the file's name (RFC 6266
// §4.1: `filename` as an ASCII quoted-string fallback, `filename*` as RFC 8187/5987 UTF-8), and
// stays `inline` (players and browsers display media). Thumbnails carry no name.
describe("'location | download URL': the file's name in Content-Disposition", { timeout: 60_000 }, () => {
  const ODD = 'we ird #?%"ü.png';

  async function listed(id: string): Promise<{ name: string; location: string; thumbnail: string }> {
    const res = await env.platform.http.get("/api/v2/file", { token: t.editor.token, query: { select: "*,location,thumbnail", search: `id=${id}` } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.content, res.text).toHaveLength(1);
    return res.body.content[0];
  }

  async function dispositionOf(url: string): Promise<string | null> {
    const res = await fetch(new URL(pathOf(url), env.platform.url));
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    return res.headers.get("content-disposition");
  }

  it("a plain name: the upload's `location` and the list's (select=*,location) answer inline with it", async () => {
    const uploaded = await upload("holiday photo.png");
    const expected = `inline; filename="holiday photo.png"; filename*=UTF-8''holiday%20photo.png`;
    expect(await dispositionOf(uploaded.location)).toBe(expected);
    const row = await listed(uploaded.id);
    expect(await dispositionOf(row.location)).toBe(expected);
    expect(await dispositionOf(row.thumbnail)).toBeNull();
  });

  it(`an odd unicode name (${ODD}): ASCII fallback without '"' or non-ASCII, the exact name in filename*`, async () => {
    const uploaded = await upload("odd.png");
    const expected = `inline; filename="we ird #?%__.png"; filename*=UTF-8''we%20ird%20%23%3F%25%22%C3%BC.png`;
    // Renamed through the single-file update: its response's `location` carries the new name.
    const updated = await env.platform.http.put(`/api/file/${uploaded.id}`, { token: t.editor.token, body: { name: ODD } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.name).toBe(ODD);
    expect(await dispositionOf(updated.body.location)).toBe(expected);
    const row = await listed(uploaded.id);
    expect(row.name).toBe(ODD);
    expect(await dispositionOf(row.location)).toBe(expected);
  });
});
