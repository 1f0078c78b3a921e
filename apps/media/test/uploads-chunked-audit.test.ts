// Consumer audit of chunked uploads (document 1, "Chunked upload session"),
// over HTTP through the gateway: empty chunks and a chunk still streaming
// while the session is cancelled.
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startUploadPlatform, type UploadTenant } from "./uploads-support.js";
import { claimSession, deleteClaimedSession } from "../src/uploads/session-repository.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let t: UploadTenant;

beforeAll(async () => {
  env = await startUploadPlatform("uploads_chunked_audit", { UPLOAD_MAX_CHUNK_SIZE: String(64 * 1024) });
  t = await env.tenant();
}, 60_000);
afterAll(() => env?.close());

const http = () => env.platform.http;
const bytes = (size: number, seed = 1) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 13 + seed) & 0xff));

function init(body: Record<string, unknown>) {
  return http().post("/api/v2/file/upload/init", { token: t.editor.token, body: { contentType: "video/mp4", ...body } });
}

function putPart(uploadId: string, n: number, data: Buffer) {
  return http().put(`/api/v2/file/upload/${uploadId}/part/${n}`, { token: t.editor.token, body: data, headers: { "content-type": "application/octet-stream" } });
}

const recover = (uploadId: string) => http().get(`/api/v2/file/upload/${uploadId}/recover`, { token: t.editor.token });

describe("chunked upload audit", { timeout: 30_000 }, () => {
  // Seed: "open -> open: chunk PUT ...; part number within totalChunks; part recorded" and
  // "Chunked upload total size: 1 byte to 10 GB": init refuses totalChunks > size, so every
  // chunk holds at least one byte; an empty chunk is refused and never replaces a recorded one.
  it("an empty chunk is 400 and does not replace the part already uploaded", async () => {
    const { body } = await init({ name: "empty.mp4", size: 40, totalChunks: 2 });
    expect((await putPart(body.uploadId, 1, bytes(20))).status).toBe(200);
    const empty = await putPart(body.uploadId, 1, Buffer.alloc(0));
    expect(empty.status, empty.text).toBe(400);
    expect(empty.body).toMatchObject({ status: 400, key: "upload.error.emptyBody", details: { partNumber: 1 } });
    const emptyNew = await putPart(body.uploadId, 2, Buffer.alloc(0));
    expect(emptyNew.status, emptyNew.text).toBe(400);
    const state = await recover(body.uploadId);
    expect(state.body).toMatchObject({ uploadedChunks: [1], missingChunks: [2] });
    expect((await putPart(body.uploadId, 2, bytes(20, 2))).status).toBe(200);
    const done = await http().post(`/api/v2/file/upload/${body.uploadId}/complete`, { token: t.editor.token });
    expect(done.status, done.text).toBe(200);
    expect(done.body.size).toBe(40);
  });

  // Seed: "open -> cancelled: cancel (DELETE); any time; resources cleaned up". A chunk that was
  // still streaming when the cancel ran must not succeed afterwards nor leave its bytes behind.
  it("a chunk still streaming when the session is cancelled is 404 and leaves no part behind", async () => {
    const { body } = await init({ name: "race.mp4", size: 20, totalChunks: 1 });
    const row = await env.platform.knexOf("media")("upload_session").where({ id: body.uploadId }).first();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(bytes(10));
        await gate;
        controller.enqueue(bytes(10, 5));
        controller.close();
      },
    });
    const slow = fetch(new URL(`/api/v2/file/upload/${body.uploadId}/part/1`, env.platform.url), {
      method: "PUT",
      headers: { authorization: `Bearer ${t.editor.token}`, "content-type": "application/octet-stream", "content-length": "20" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    await new Promise((r) => setTimeout(r, 300));
    const cancel = await http().delete(`/api/v2/file/upload/${body.uploadId}`, { token: t.editor.token });
    expect(cancel.status, cancel.text).toBe(204);
    release();
    const late = await slow;
    const lateBody = await late.json();
    expect(late.status, JSON.stringify(lateBody)).toBe(404);
    expect(lateBody).toMatchObject({ status: 404, key: "upload.error.sessionNotFound" });
    expect(existsSync(join(env.blobDir, ".multipart", row.store_upload_id))).toBe(false);
  });

  // Seed: "cancel ... resources cleaned up"; a refused init must not leave an open upload in the
  // store that no session row points at (the sweeper finds uploads by their rows; on S3 such an
  // upload would stay, billed, for good). PostgreSQL refuses these values after the store opened it.
  it("an init PostgreSQL refuses (a NUL in the name, an unpaired surrogate in metaData) is 400 and leaves no open upload in the store", async () => {
    const openUploads = async () => (existsSync(join(env.blobDir, ".multipart")) ? (await readdir(join(env.blobDir, ".multipart"))).length : 0);
    const before = await openUploads();
    const sessions = async () => Number((await env.platform.knexOf("media")("upload_session").where({ customer_id: t.id }).count({ n: "*" }))[0].n);
    const sessionsBefore = await sessions();
    for (const body of [{ name: "a\u0000b.mp4", size: 20, totalChunks: 1 }, { name: "meta.mp4", size: 20, totalChunks: 1, metaData: { note: "\ud800" } }]) {
      const res = await init(body);
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({ status: 400, key: "request.error.invalidText" });
    }
    expect(await openUploads()).toBe(before);
    expect(await sessions()).toBe(sessionsBefore);
  });

  // Seed: "open -> cancelled: cancel (DELETE); any time; resources cleaned up". A complete whose
  // process died mid-way leaves its claim (state completing): once the claim is an hour old the
  // session is the client's again, to cancel or to complete; a live claim still holds both off.
  it("a session left completing by a complete that died is cancellable and completable again once its claim expired; a live claim still answers 409", async () => {
    const sessions = () => env.platform.knexOf("media")("upload_session");
    const crashed = async (name: string, claimedMsAgo: number) => {
      const { body } = await init({ name, size: 20, totalChunks: 1 });
      expect((await putPart(body.uploadId, 1, bytes(20))).status).toBe(200);
      await sessions().where({ id: body.uploadId }).update({ state: "completing", updated_at: new Date(Date.now() - claimedMsAgo) });
      return body.uploadId as string;
    };
    const live = await crashed("live.mp4", 1000);
    for (const res of [await http().delete(`/api/v2/file/upload/${live}`, { token: t.editor.token }), await http().post(`/api/v2/file/upload/${live}/complete`, { token: t.editor.token }), await putPart(live, 1, bytes(20))]) {
      expect([res.status, res.body.key], res.text).toEqual([409, "upload.error.sessionNotOpen"]);
    }

    const toCancel = await crashed("dead-cancel.mp4", 2 * 60 * 60 * 1000);
    const row = await sessions().where({ id: toCancel }).first();
    expect((await http().delete(`/api/v2/file/upload/${toCancel}`, { token: t.editor.token })).status).toBe(204);
    expect(await sessions().where({ id: toCancel }).first()).toBeUndefined();
    expect(existsSync(join(env.blobDir, ".multipart", row.store_upload_id))).toBe(false);

    const toComplete = await crashed("dead-complete.mp4", 2 * 60 * 60 * 1000);
    const done = await http().post(`/api/v2/file/upload/${toComplete}/complete`, { token: t.editor.token });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ name: "dead-complete.mp4", size: 20 });
  });

  it("a complete ends only its own claim: once another request took the session over, its delete finds nothing", async () => {
    const { body } = await init({ name: "claimed.mp4", size: 20, totalChunks: 1 });
    const media = env.platform.knexOf("media");
    const first = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await claimSession(media, body.uploadId, first);
    const second = new Date();
    await claimSession(media, body.uploadId, second); // the expired claim taken over
    expect(await deleteClaimedSession(media, body.uploadId, first)).toBe(false);
    expect(await media("upload_session").where({ id: body.uploadId }).first()).toBeDefined();
    expect(await deleteClaimedSession(media, body.uploadId, second)).toBe(true);
  });
});
