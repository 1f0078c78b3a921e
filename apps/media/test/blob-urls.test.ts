// location / thumbnail URLs: signed gateway URLs whose expiry is rounded up to a window.
import { describe, expect, it, vi } from "vitest";
import { UrlSigner, verifyPresignedBlob } from "@signage/storage";
import { createBlobUrls } from "../src/storage/blob-urls.js";

describe("createBlobUrls", () => {
  const windowMs = 60_000;
  function setup() {
    const signer = new UrlSigner("0123456789abcdef0123456789abcdef");
    const sign = vi.spyOn(signer, "sign");
    let clock = 1_000_000;
    const urls = createBlobUrls({ signer, baseUrl: "", windowMs, now: () => clock });
    return { signer, sign, urls, advance: (ms: number) => (clock += ms) };
  }

  it("signs a key once per window: the same URL again, without signing, until the window moves", () => {
    const { sign, urls, advance } = setup();
    const first = urls.urlOf("files/1/a.png", "file");
    expect(urls.urlOf("files/1/a.png", "file")).toBe(first);
    expect(sign).toHaveBeenCalledTimes(1);
    advance(windowMs);
    const next = urls.urlOf("files/1/a.png", "file");
    expect(next).not.toBe(first);
    expect(sign).toHaveBeenCalledTimes(2);
  });

  it("gives each key its own valid URL, and none for a file without a blob", () => {
    const { signer, urls } = setup();
    const { location, thumbnail } = urls.urlOfFile({ storage_key: "files/1/a.png", thumbnail_key: null });
    expect(thumbnail).toBeUndefined();
    const query = Object.fromEntries(new URL(location!, "http://gateway").searchParams) as Record<string, string>;
    const blob = location!.split("?")[0].split("/").pop()!;
    expect(verifyPresignedBlob(signer, { ...query, blob } as never, 1_000_000).check).toBe("ok");
    expect(urls.urlOf("files/1/b.png", "file")).not.toBe(location);
  });

  it("opens only in the encoding issued (RFC 4648 §3.3 'MUST reject the encoded data if it contains characters outside the base alphabet'): one signed key has one URL", () => {
    const { signer, urls } = setup();
    const location = urls.urlOf("files/1/a.png", "file")!;
    const query = Object.fromEntries(new URL(location, "http://gateway").searchParams) as Record<string, string>;
    const blob = location.split("?")[0].split("/").pop()!;
    expect(verifyPresignedBlob(signer, { ...query, blob } as never, 1_000_000).check).toBe("ok");
    for (const alias of [`${blob}=`, ` ${blob}`, `${blob}\n`, `${blob.slice(0, 4)}.${blob.slice(4)}`]) {
      expect(verifyPresignedBlob(signer, { ...query, blob: alias } as never, 1_000_000).check, alias).toBe("invalid");
    }
  });

  it("signs a file's name into its location (the download's Content-Disposition), none into its thumbnail; each name its own URL", () => {
    const { signer, sign, urls } = setup();
    const name = 'we ird #?%"ü.png';
    const { location, thumbnail } = urls.urlOfFile({ storage_key: "files/1/a.png", thumbnail_key: "thumbnails/1/a-1.png", name });
    const query = (url: string) => Object.fromEntries(new URL(url, "http://gateway").searchParams) as Record<string, string>;
    const blob = (url: string) => url.split("?")[0].split("/").pop()!;
    expect(query(location!).filename).toBe(name);
    expect(verifyPresignedBlob(signer, { ...query(location!), blob: blob(location!) } as never, 1_000_000).check).toBe("ok");
    // The name is signed: another name on the same URL does not verify.
    expect(verifyPresignedBlob(signer, { ...query(location!), filename: "other.png", blob: blob(location!) } as never, 1_000_000).check).toBe("invalid");
    expect(query(thumbnail!).filename).toBeUndefined();
    // Remembered per (key, name): the same name again signs nothing, another name signs once.
    sign.mockClear();
    expect(urls.urlOf("files/1/a.png", "file", name)).toBe(location);
    expect(urls.urlOf("thumbnails/1/a-1.png", "thumbnail", name)).toBe(thumbnail);
    expect(sign).toHaveBeenCalledTimes(0);
    expect(urls.urlOf("files/1/a.png", "file", "renamed.png")).not.toBe(location);
    expect(sign).toHaveBeenCalledTimes(1);
  });
});
