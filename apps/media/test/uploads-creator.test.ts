// Document 1 "File": "creator | object | has `email` and `name`". Uploads
// (simple, and chunked complete) store the uploader's name read once from core;
// when core does not answer, the upload still succeeds with the name left empty.
import { createHandlerContext } from "@connectrpc/connect";
import { authContextKey } from "@signage/auth";
import { FileUploadService } from "@signage/contracts/signage/media/v1/upload_pb";
import { createLogger } from "@signage/platform";
import { createPeers } from "@signage/runtime";
import { createUser, type TenantUser } from "@signage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerName } from "../src/uploads/upload-creator.js";
import type { UploadDeps } from "../src/uploads/upload-deps.js";
import { multipart, png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let t: UploadTenant;
let erika: TenantUser;
const NAME = "Erika Mustermann";

const http = () => env.platform.http;
const upload = (token: string, name: string) => http().post("/api/file", { token, body: multipart([{ name: "files[]", filename: name, type: "image/png", data: png(2, 2) }]) });

beforeAll(async () => {
  env = await startUploadPlatform("uploads_creator");
  t = await env.tenant();
  erika = await createUser(http(), env.admin, t.id, "EDITOR", { name: NAME });
}, 60_000);
afterAll(() => env?.close());

describe("creator has email and name", { timeout: 30_000 }, () => {
  it("simple upload: the response and the file list carry creator.name", async () => {
    const res = await upload(erika.token, "by-erika.png");
    expect(res.status, res.text).toBe(200);
    expect(res.body[0].creator).toEqual({ email: erika.email, name: NAME });
    // creator is an object, not a primitive field: the list renders it when named in select.
    const list = await http().get("/api/v2/file", { token: t.viewer.token, query: { search: `id=${res.body[0].id}`, select: "*,creator" } });
    expect(list.body.content[0]).toMatchObject({ creatorEmail: erika.email, creator: { email: erika.email, name: NAME } });
  });

  it("chunked upload: complete stores the uploader's name", async () => {
    const opened = await http().post("/api/v2/file/upload/init", { token: erika.token, body: { name: "clip.mp4", size: 20, totalChunks: 1, contentType: "video/mp4" } });
    expect(opened.status, opened.text).toBe(200);
    const { uploadId } = opened.body;
    await http().put(`/api/v2/file/upload/${uploadId}/part/1`, { token: erika.token, body: Buffer.alloc(20, 3), headers: { "content-type": "application/octet-stream" } });
    const done = await http().post(`/api/v2/file/upload/${uploadId}/complete`, { token: erika.token });
    expect(done.status, done.text).toBe(200);
    expect(done.body.creator).toEqual({ email: erika.email, name: NAME });
  });

  it("core failing to answer: the upload succeeds, creator.name stays empty", async () => {
    const core = env.platform.knexOf("core");
    await core.raw("ALTER TABLE app_user RENAME TO app_user_away");
    try {
      const res = await upload(erika.token, "core-down.png");
      expect(res.status, res.text).toBe(200);
      expect(res.body[0].creatorEmail).toBe(erika.email);
      expect(res.body[0].creator.name ?? null).toBeNull();
    } finally {
      await core.raw("ALTER TABLE app_user_away RENAME TO app_user");
    }
  });

  it("core unreachable (no transport to core): callerName gives null and does not throw", async () => {
    const ctx = createHandlerContext({ service: FileUploadService, method: FileUploadService.method.uploadFiles, protocolName: "connect", requestMethod: "POST", url: "http://media/" });
    ctx.values.set(authContextKey, { caller: { kind: "user", userId: "u1", subject: "x@example.test", customerId: t.id } as never, scope: { kind: "tenants", customerIds: new Set([t.id]) } as never });
    const warnings: unknown[] = [];
    const logger = createLogger({ name: "creator-test", level: "silent" });
    const deps = { peers: createPeers(() => undefined), files: { logger: { ...logger, warn: (...args: unknown[]) => warnings.push(args) } } } as unknown as Pick<UploadDeps, "peers" | "files">;
    expect(await callerName(ctx, deps)).toBeNull();
    expect(warnings).toHaveLength(1);
  });

  it("an upload the client cancelled: callerName gives null without warning that core failed (it did not)", async () => {
    const cancel = new AbortController();
    const ctx = createHandlerContext({ service: FileUploadService, method: FileUploadService.method.uploadFiles, protocolName: "connect", requestMethod: "POST", url: "http://media/", requestSignal: cancel.signal });
    ctx.values.set(authContextKey, { caller: { kind: "user", userId: "u1", subject: "x@example.test", customerId: t.id } as never, scope: { kind: "tenants", customerIds: new Set([t.id]) } as never });
    cancel.abort();
    const warnings: unknown[] = [];
    const logger = createLogger({ name: "creator-test", level: "silent" });
    // No transport to core: the call fails as it would when cancelled (either way no name).
    const deps = { peers: createPeers(() => undefined), files: { logger: { ...logger, warn: (...args: unknown[]) => warnings.push(args) } } } as unknown as Pick<UploadDeps, "peers" | "files">;
    expect(await callerName(ctx, deps)).toBeNull();
    expect(warnings).toEqual([]);
  });
});
