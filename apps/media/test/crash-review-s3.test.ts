// Crash review of the S3 adapter under media's uploads (STORAGE_URL=s3://..., against s3rver): a
// body that fails before the adapter starts reading it (while the lazily loaded SDK is still being
// imported, or any other wait of the store) must fail the put, not leave it waiting forever with
// the upload's request, its blob intent and its buffered bytes.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, type Readable } from "node:stream";
import { coreModule } from "@signage/core";
import { createBlobStoreFromUrl, type BlobStore } from "@signage/storage";
import { startS3TestServer, type S3TestServer } from "@signage/storage/testing";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mediaModule } from "../src/module.js";
import { png } from "./uploads-support.js";

let s3: S3TestServer;
let platform: TestPlatform;
let editor: string;
let fsRoot: string;
const crashes: unknown[] = [];
const onCrash = (err: unknown) => void crashes.push(err);

beforeAll(async () => {
  process.on("uncaughtException", onCrash);
  process.on("unhandledRejection", onCrash);
  s3 = await startS3TestServer();
  fsRoot = await mkdtemp(join(tmpdir(), "crash-review-fs-"));
  platform = await startPlatform({
    modules: [coreModule, mediaModule],
    prefix: "crash_review_s3",
    env: { ...s3.env, STORAGE_URL: `s3://${s3.bucket}/media`, STORAGE_SIGNING_SECRET: "crash-review-signing-secret-0123456789", MEDIA_VALIDITY_SWEEP_MS: "3600000", UPLOAD_SWEEP_INTERVAL_MS: "3600000" },
  });
  const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const customer = await createCustomer(platform.http, admin);
  editor = (await createUser(platform.http, admin, customer.id, "EDITOR")).token;
}, 60_000);

afterAll(async () => {
  await platform?.close();
  await s3?.close();
  await rm(fsRoot, { recursive: true, force: true });
  process.off("uncaughtException", onCrash);
  process.off("unhandledRejection", onCrash);
});

/** Rejects when `promise` has not settled within `ms` (a put left waiting forever). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A body stream that has already failed (and emitted its error) before the store gets it. */
async function failedBody(): Promise<Readable> {
  const body = new PassThrough();
  body.on("error", () => undefined);
  body.write(Buffer.alloc(1000, 1));
  body.destroy(new Error("the client went away"));
  await new Promise((r) => setImmediate(r));
  return body;
}

describe("crash review: S3 store under cut uploads", { timeout: 60_000 }, () => {
  // First in this file: this upload is the one that loads the S3 adapter (lazy-blob-store.ts).
  it("\"Other upload outcomes preserved by the service: 400 ...\": the first upload after start whose form is cut short answers 400 request.error.invalidMultipart and keeps nothing, on S3 too (it waited forever: no answer, its blob intent left)", async () => {
    const boundary = "s3CutBoundary";
    const whole = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="cut.png"\r\nContent-Type: image/png\r\n\r\n`),
      png(16, 16),
      Buffer.alloc(200_000, 3),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await within(
      fetch(new URL("/api/file", platform.url), { method: "POST", body: new Uint8Array(whole.subarray(0, 100_000)), headers: { authorization: `Bearer ${editor}`, "content-type": `multipart/form-data; boundary=${boundary}` } }),
      10_000,
      "the cut upload's answer",
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 400, key: "request.error.invalidMultipart" });
    // The failed upload's blob intent went with it (a handler left waiting keeps it).
    await new Promise((r) => setTimeout(r, 300));
    expect(await platform.knexOf("media")("blob_intent").select("key")).toEqual([]);
    // And the store still takes uploads.
    const f = new FormData();
    f.append("files[]", new Blob([new Uint8Array(png(8, 8))], { type: "image/png" }), "ok.png");
    const ok = await platform.http.post("/api/file", { token: editor, body: f });
    expect(ok.status, ok.text).toBe(200);
    expect(crashes).toEqual([]);
  });

  it("BlobStore put / multipart.putPart (\"Streams `body` into `key`\"): a body that failed before the call rejects with its error, on both adapters, whether its size is known or not", async () => {
    const stores: Array<[string, BlobStore]> = [
      ["s3", createBlobStoreFromUrl(`s3://${s3.bucket}/direct`, { env: s3.env })],
      ["filesystem", createBlobStoreFromUrl(fsRoot, { env: {} })],
    ];
    for (const [name, store] of stores) {
      for (const size of [undefined, 5000]) {
        await expect(within(store.put(`c/${name}-${size}.bin`, await failedBody(), { size }), 5000, `${name} put (size ${size})`)).rejects.toThrow("the client went away");
        const uploadId = await store.multipart.create(`c/${name}-${size}-parts.bin`);
        await expect(within(store.multipart.putPart(`c/${name}-${size}-parts.bin`, uploadId, 1, await failedBody(), { size }), 5000, `${name} putPart (size ${size})`)).rejects.toThrow("the client went away");
        expect(await store.multipart.listParts(`c/${name}-${size}-parts.bin`, uploadId)).toEqual([]);
        await store.multipart.abort(`c/${name}-${size}-parts.bin`, uploadId);
        expect(await store.stat(`c/${name}-${size}.bin`)).toBeUndefined();
      }
    }
    expect(crashes).toEqual([]);
  });
});
