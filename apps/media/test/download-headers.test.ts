// `location` downloads over HTTP through the gateway. Document 1 "File": "location |
// string | download URL (computed; request it in select)"; "Files are immutable and
// referenced by id." Where the seed is silent, RFC 9110/9111: a strong ETag for the
// immutable bytes (§8.8.3) so If-None-Match answers 304 (§13.1.2); Cache-Control
// max-age no longer than the signed URL lives (RFC 9111 §5.2.2.1); a HEAD (RFC 9110
// §9.3.2) ends the stream after the head, and the opened blob must be closed then.
import { readdirSync, readlinkSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, pathOf, png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let t: UploadTenant;

beforeAll(async () => {
  env = await startUploadPlatform("media_download_headers");
  t = await env.tenant();
}, 60_000);
afterAll(() => env?.close());

async function upload(name: string): Promise<{ location: string }> {
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
