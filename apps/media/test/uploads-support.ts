// Shared pieces of the upload tests: the platform with a temp blob directory,
// tenants with users of each role, multipart bodies, and tiny valid images.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { deflateSync } from "node:zlib";
import { coreModule } from "@signage/core";
import { createCustomer, createUser, eventually, startPlatform, TEST_ADMIN, type TestPlatform, type TenantUser } from "@signage/testing";
import { mediaModule } from "../src/module.js";

export interface UploadTenant {
  id: number;
  rootId: string;
  owner: TenantUser;
  editor: TenantUser;
  viewer: TenantUser;
}

export async function startUploadPlatform(prefix: string, env: Record<string, string> = {}) {
  const blobDir = await mkdtemp(join(tmpdir(), "media-blobs-"));
  const platform: TestPlatform = await startPlatform({
    modules: [coreModule, mediaModule],
    prefix,
    env: { STORAGE_URL: blobDir, STORAGE_SIGNING_SECRET: "test-signing-secret-0123456789", MEDIA_VALIDITY_SWEEP_MS: "3600000", UPLOAD_SWEEP_INTERVAL_MS: "3600000", ...env },
  });
  const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);

  async function tenant(body: Record<string, unknown> = {}): Promise<UploadTenant> {
    const customer = await createCustomer(platform.http, admin, body);
    const [owner, editor, viewer] = await Promise.all(["OWNER", "EDITOR", "VIEWER"].map((role) => createUser(platform.http, admin, customer.id, role)));
    let rootId: string | undefined;
    for (let i = 0; i < 100 && !rootId; i++) {
      const res = await platform.http.get("/api/v2/fileFolder", { token: viewer.token, query: { search: "parentId=NULL" } });
      rootId = res.body.content?.[0]?.id;
      if (!rootId) await new Promise((r) => setTimeout(r, 20));
    }
    if (!rootId) throw new Error("root folder never appeared");
    return { id: customer.id, rootId, owner, editor, viewer };
  }

  /** An ADMIN sets the customer's storageSize; resolves once media's tenant replica carries it (customer.updated). */
  async function setStorageSize(customerId: number, storageSize: number | null): Promise<void> {
    const res = await platform.http.put(`/api/customer/${customerId}`, { token: admin, body: { storageSize } });
    if (res.status !== 200) throw new Error(`storageSize not set: ${res.status} ${res.text}`);
    const expected = storageSize === null ? null : String(storageSize);
    await eventually(
      () => platform.knexOf("media")("tenant").where({ customer_id: customerId, storage_size_known: true }).first("storage_size"),
      (row) => row !== undefined && (row.storage_size === null ? null : String(row.storage_size)) === expected,
      "storageSize replicated to media",
    );
  }

  return {
    platform,
    admin,
    blobDir,
    tenant,
    setStorageSize,
    async close() {
      await platform.close();
      await rm(blobDir, { recursive: true, force: true });
    },
  };
}

export interface FormPart {
  name: string;
  filename?: string;
  type?: string;
  data: Buffer | string;
}

export function multipart(parts: FormPart[]): FormData {
  const form = new FormData();
  for (const p of parts) {
    if (p.filename === undefined) form.append(p.name, String(p.data));
    else form.append(p.name, new Blob([typeof p.data === "string" ? p.data : new Uint8Array(p.data)], { type: p.type ?? "" }), p.filename);
  }
  return form;
}

/** A streamed multipart body with one generated file part of `size` bytes (never held in memory). */
export function streamedMultipart(field: string, filename: string, type: string, size: number): { body: ReadableStream; contentType: string } {
  const boundary = "----streamedBoundary7MA4YWxk";
  async function* gen() {
    yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`);
    const piece = Buffer.alloc(1024 * 1024, 0x5a);
    for (let sent = 0; sent < size; sent += piece.length) yield sent + piece.length <= size ? piece : piece.subarray(0, size - sent);
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return { body: Readable.toWeb(Readable.from(gen())) as ReadableStream, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A valid PNG of the given size (one gray pixel row repeated). */
export function png(width: number, height: number): Buffer {
  const crcTable = new Int32Array(256).map((_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c;
  });
  const crc = (buf: Buffer) => {
    let c = -1;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ -1) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  const raw = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) raw[y * (width + 1)] = 0;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

/** The headers of a baseline JPEG of the given size (SOI, JFIF APP0, SOF0, EOI): what the server reads of one. */
export function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof0 = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof0, Buffer.from([0xff, 0xd9])]);
}

/** Path and query of a URL the service returned (absolute or root-relative), for the test client. */
export function pathOf(url: string): string {
  const u = new URL(url, "http://gateway.invalid");
  return `${u.pathname}${u.search}`;
}
