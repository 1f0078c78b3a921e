// Chunked upload sessions racing the session sweeper and a cancel, over HTTP through the gateway.
// Document 1, "Chunked upload session": "open | complete | all chunks uploaded | finished | file record
// created, session resources cleaned up, file returned" and "open | cancel (DELETE) | any time | cancelled |
// resources cleaned up". A complete is held at a row lock the test holds (the blob intent of the session's
// key, which complete records right after claiming the session); waits are observed on real locks.
import type { Knex } from "knex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilesystemBlobStore } from "@signage/storage";
import { sweepExpiredSessions } from "../src/uploads/index.js";
import { COMPLETE_CLAIM_TTL_MS } from "../src/uploads/upload-deps.js";
import { png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let t: UploadTenant;
let knex: Knex;

beforeAll(async () => {
  env = await startUploadPlatform("media_race_review_chunked");
  t = await env.tenant();
  knex = env.platform.knexOf("media");
}, 60_000);
afterAll(() => env?.close());

const http = () => env.platform.http;

/** Resolves once another backend waits for a lock `pid` holds (no guessed delay). */
async function someoneWaitsFor(pid: number): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    const { rows } = await knex.raw("SELECT pid FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid))", [pid]);
    if (rows.length > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`nobody waited for backend ${pid}`);
}

/** An open session with its one chunk uploaded. */
async function openSession(name: string) {
  const data = png(4, 4);
  const init = await http().post("/api/v2/file/upload/init", { token: t.editor.token, body: { name, size: data.length, totalChunks: 1, contentType: "image/png", parentId: t.rootId } });
  expect(init.status, init.text).toBe(200);
  const uploadId = init.body.uploadId as string;
  const part = await http().put(`/api/v2/file/upload/${uploadId}/part/1`, { token: t.editor.token, body: data, headers: { "content-type": "application/octet-stream" } });
  expect(part.status, part.text).toBe(200);
  const row: { storage_key: string; file_id: string } = await knex("upload_session").where({ id: uploadId }).first();
  return { uploadId, row };
}

/**
 * Starts complete of `uploadId`, runs `meanwhile` once complete has claimed the session and waits
 * (for the blob intent of `storageKey`, which the test holds), then lets it go on; returns its answer.
 */
async function completeHeldAfterClaim(uploadId: string, storageKey: string, meanwhile: () => Promise<void>) {
  const trx = await knex.transaction();
  try {
    const { rows } = await trx.raw("SELECT pg_backend_pid() AS pid");
    await trx.raw("INSERT INTO blob_intent (key, customer_id) VALUES (?, ?)", [storageKey, t.id]);
    const completing = http().post(`/api/v2/file/upload/${uploadId}/complete`, { token: t.editor.token });
    await someoneWaitsFor(rows[0].pid);
    expect(await knex("upload_session").where({ id: uploadId }).first("state")).toEqual({ state: "completing" });
    await meanwhile();
    await trx.rollback();
    return await completing;
  } finally {
    if (!trx.isCompleted()) await trx.rollback();
  }
}

describe("chunked complete against the session sweeper and a cancel", { timeout: 30_000 }, () => {
  it("'complete ... file record created ..., file returned': a session that expires while its complete runs is not swept from under it (was a 500)", async () => {
    const { uploadId, row } = await openSession("race-sweep.png");
    const store = createFilesystemBlobStore({ root: env.blobDir });
    let swept: number | undefined;
    const done = await completeHeldAfterClaim(uploadId, row.storage_key, async () => {
      // The session's lifetime ends after complete claimed it; the sweeper runs.
      await knex("upload_session").where({ id: uploadId }).update({ expires_at: new Date(Date.now() - 1000) });
      swept = await sweepExpiredSessions(knex, store, new Date());
    });
    expect(swept).toBe(0);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ id: row.file_id, name: "race-sweep.png" });
    expect(await knex("file").where({ id: row.file_id }).first("id")).toEqual({ id: row.file_id });
    // "session resources cleaned up".
    expect(await knex("upload_session").where({ id: uploadId })).toEqual([]);
  });

  it("a complete whose claim expired and was taken over by a cancel ('cancel (DELETE) | any time') answers 409 upload.error.sessionTakenOver, not 500; nothing stays", async () => {
    const { uploadId, row } = await openSession("race-cancel.png");
    let cancelled: { status: number; text: string } | undefined;
    const done = await completeHeldAfterClaim(uploadId, row.storage_key, async () => {
      // The claim looks abandoned (older than COMPLETE_CLAIM_TTL_MS): a cancel may take the session.
      await knex("upload_session").where({ id: uploadId }).update({ updated_at: new Date(Date.now() - COMPLETE_CLAIM_TTL_MS - 60_000) });
      cancelled = await http().delete(`/api/v2/file/upload/${uploadId}`, { token: t.editor.token });
    });
    expect(cancelled!.status, cancelled!.text).toBe(204);
    expect(done.status, done.text).toBe(409);
    expect(done.body).toMatchObject({ status: 409, key: "upload.error.sessionTakenOver", details: { uploadId } });
    expect(await knex("file").where({ id: row.file_id })).toEqual([]);
    expect(await knex("upload_session").where({ id: uploadId })).toEqual([]);
    expect(await knex("blob_intent").where({ key: row.storage_key })).toEqual([]);
  });
});
