// The S3 adapter's download race: `get` asks HEAD, then GET; an object deleted in between
// (a file removed while its download starts) must read as gone (BlobNotFoundError, which
// media answers 404 storage.error.blobNotFound), never as an unmapped NoSuchKey (a 500).
// Document 1, File fields: "location | string | download URL (computed)". A proxy in front
// of the local S3-compatible server deletes the object just before forwarding the GET.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlobNotFoundError, createBlobStoreFromUrl, type BlobStore } from "../src/index.js";
import { startS3TestServer, type S3TestServer } from "../src/testing/s3-test-server.js";
import { readAll } from "./blob-store-contract.js";

let s3: S3TestServer;
let proxy: Server;
/** Straight to s3rver. */
let direct: BlobStore;
/** Through the proxy. */
let racing: BlobStore;
/** Keys the proxy deletes before it forwards their next GET. */
const doomed = new Set<string>();

const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
const storeAt = (endpoint: string) => createBlobStoreFromUrl(`s3://${s3.bucket}/race`, { env: { ...s3.env, AWS_ENDPOINT_URL_S3: endpoint }, s3: { credentials } });

beforeAll(async () => {
  s3 = await startS3TestServer();
  direct = storeAt(s3.endpoint);
  const target = new URL(s3.endpoint);
  proxy = createServer((req, res) => {
    const key = decodeURIComponent(new URL(req.url ?? "/", "http://proxy").pathname).replace(`/${s3.bucket}/race/`, "");
    const deleted = req.method === "GET" && doomed.delete(key) ? direct.delete(key) : Promise.resolve();
    deleted.then(() => {
      // Host and signature pass unchanged: s3rver checks the signature over the headers it gets.
      const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on("error", () => res.destroy());
      req.pipe(upstream);
    }, () => res.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  racing = storeAt(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`);
});
afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  await s3?.close();
});

describe("S3 store: an object deleted between HEAD and GET", () => {
  it("the proxy only deletes doomed keys: an ordinary get through it serves the bytes", async () => {
    await direct.put("f/kept.bin", Buffer.from("kept bytes"));
    const read = await racing.get("f/kept.bin");
    expect((await readAll(read.body)).toString()).toBe("kept bytes");
  });

  it("a whole get rejects with BlobNotFoundError, not S3's NoSuchKey", async () => {
    await direct.put("f/vanishing.bin", Buffer.from("soon gone"));
    doomed.add("f/vanishing.bin");
    const failure = await racing.get("f/vanishing.bin").catch((err: unknown) => err);
    expect(doomed.has("f/vanishing.bin")).toBe(false);
    expect(failure).toBeInstanceOf(BlobNotFoundError);
    expect((failure as BlobNotFoundError).key).toBe("f/vanishing.bin");
  });

  it("a ranged get rejects the same way, and stat then answers undefined", async () => {
    await direct.put("f/vanishing-range.bin", Buffer.from("0123456789"));
    doomed.add("f/vanishing-range.bin");
    await expect(racing.get("f/vanishing-range.bin", { start: 2, end: 5 })).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await racing.stat("f/vanishing-range.bin")).toBeUndefined();
  });
});
