// upload_session rows: the chunked upload's state (migration 20261122000300_uploads).
import type { Knex } from "knex";
import type { Scope } from "@signage/auth";
import { isUuid } from "@signage/runtime";
import { COMPLETE_CLAIM_TTL_MS } from "./upload-deps.js";

type Db = Knex | Knex.Transaction;

export interface SessionRow {
  id: string;
  customer_id: string | number;
  state: "open" | "completing";
  file_id: string;
  storage_key: string;
  store_upload_id: string;
  name: string;
  size: string | number;
  total_chunks: number;
  max_chunk_size: string | number;
  content_type: string;
  meta_data: Record<string, unknown> | null;
  parent_id: string | null;
  tags: string[];
  valid_from: string | number | null;
  valid_to: string | number | null;
  width: number | null;
  height: number | null;
  muted: boolean | null;
  crc_checksum: string | null;
  team_ids: string | null;
  creator_user_id: string | null;
  creator_email: string | null;
  /** When the state last changed: for `completing`, when complete claimed the session. */
  updated_at: Date;
  expires_at: Date;
}

export async function insertSession(db: Db, row: Omit<SessionRow, "state" | "updated_at" | "expires_at"> & { expires_at: Date }): Promise<void> {
  await db("upload_session").insert({ ...row, meta_data: row.meta_data === null ? null : JSON.stringify(row.meta_data), state: "open" });
}

/** An unexpired session of one of the scope's tenants. */
export async function findSession(db: Db, scope: Scope, id: string, options: { forUpdate?: boolean; now?: Date } = {}): Promise<SessionRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = db<SessionRow>("upload_session").where({ id }).where("expires_at", ">", options.now ?? new Date());
  if (scope.kind === "tenants") q.whereIn("customer_id", [...scope.customerIds]);
  if (options.forUpdate) q.forUpdate();
  return (await q.first()) as SessionRow | undefined;
}

export async function findSessionByStoreUpload(db: Db, storeUploadId: string, now = new Date()): Promise<SessionRow | undefined> {
  return (await db<SessionRow>("upload_session").where({ store_upload_id: storeUploadId }).where("expires_at", ">", now).first()) as SessionRow | undefined;
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db("upload_session").where({ id }).delete();
}

/**
 * Complete's claim: state `completing` since `claimedAt` (the app's clock, whole milliseconds, so
 * the same Date finds the row again). A claim older than COMPLETE_CLAIM_TTL_MS counts as abandoned
 * (chunked-parts.ts requireOpen): cancel, chunks and a new complete may go on.
 */
export async function claimSession(db: Db, id: string, claimedAt: Date): Promise<void> {
  await db("upload_session").where({ id }).update({ state: "completing", updated_at: claimedAt });
}

/** Ends this claim: false when the session is no longer under it (cancelled, or claimed anew after it expired). */
export async function deleteClaimedSession(db: Db, id: string, claimedAt: Date): Promise<boolean> {
  return (await db("upload_session").where({ id, state: "completing", updated_at: claimedAt }).delete()) === 1;
}

/** Gives the session back to the client (open) unless someone else took it over meanwhile. */
export async function reopenClaimedSession(db: Db, id: string, claimedAt: Date): Promise<void> {
  await db("upload_session").where({ id, state: "completing", updated_at: claimedAt }).update({ state: "open", updated_at: db.fn.now() });
}

/**
 * Claims up to `limit` expired sessions for this sweeper: deleted in the
 * returned rows' transaction with SKIP LOCKED, so replicas never sweep the
 * same session twice and never wait on each other. Not a session a complete
 * holds (its claim younger than COMPLETE_CLAIM_TTL_MS): a complete started just
 * before the session expired would lose its parts (or its assembled blob) under it.
 */
export async function claimExpiredSessions(trx: Knex.Transaction, now: Date, limit: number): Promise<SessionRow[]> {
  const result = await trx.raw(
    `DELETE FROM upload_session WHERE id IN (
       SELECT id FROM upload_session WHERE expires_at <= ? AND NOT (state = 'completing' AND updated_at > ?)
        ORDER BY expires_at LIMIT ? FOR UPDATE SKIP LOCKED
     ) RETURNING *`,
    [now, new Date(now.getTime() - COMPLETE_CLAIM_TTL_MS), limit],
  );
  return result.rows as SessionRow[];
}
