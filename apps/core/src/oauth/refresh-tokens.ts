// Refresh tokens: opaque random strings, stored only as SHA-256 hashes,
// rotated on every use. Presenting an already-rotated token means it leaked:
// the whole family (that login) is revoked. Except shortly after its use, while
// its successor is still unused (the reuse grace, below): then the response that
// carried the successor was most likely lost, and the retry gets that same
// successor again.
import { createHash, createHmac, hkdfSync, randomBytes } from "node:crypto";
import type { Knex } from "knex";
import type { IdGenerator } from "@signage/db";
import { wholeNumberSetting } from "../whole-number-setting.js";

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export interface RefreshTokenRow {
  id: string;
  user_id: string;
  family_id: string;
  expires_at: Date;
  rotated_at: Date | null;
  revoked_at: Date | null;
}

/**
 * A token's successor is derived from it (HMAC under a key only core holds), not drawn at
 * random, so a retry of the same rotation can be answered with the same successor without
 * storing it: the successor a lost response carried is the one the retry receives. Holders of
 * one token therefore share one chain, and whichever of them presents its next token second is
 * a replay (RFC 9700 4.14.2), as without the grace.
 */
export function successorOf(key: Uint8Array, token: string): string {
  return createHmac("sha256", key).update(token).digest("base64url");
}

/** The successor key, derived from core's signing key (one secret to provision and rotate). */
export function successorKeyFrom(privateKeyPem: string): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", privateKeyPem, "signage refresh token successor", "v1", 32));
}

export async function issueRefreshToken(
  trx: Knex | Knex.Transaction,
  newId: IdGenerator,
  userId: string,
  ttlSeconds: number,
  familyId: string = newId(),
  /** The token itself when it is a successor (successorOf); a login's first token is random. */
  token: string = randomBytes(32).toString("base64url"),
): Promise<string> {
  await trx("refresh_token").insert({
    id: newId(),
    token_hash: hashToken(token),
    user_id: userId,
    family_id: familyId,
    expires_at: new Date(Date.now() + ttlSeconds * 1000),
  });
  return token;
}

export type RefreshOutcome =
  | {
      ok: true;
      row: RefreshTokenRow;
      /** The successor to hand out: issue it (`existing` false), or it is stored and still unused (a retry within the grace). */
      successor: { token: string; existing: boolean };
    }
  | { ok: false; reason: "unknown" | "expired" | "revoked"; familyId?: string }
  | { ok: false; reason: "reused"; familyId: string; userId: string };

export const DEFAULT_REFRESH_REUSE_GRACE_SECONDS = 30;
const MAX_REFRESH_REUSE_GRACE_SECONDS = 300;

/** `REFRESH_REUSE_GRACE_SECONDS`: whole seconds 0..300, default 30; 0 turns the grace off. */
export function refreshReuseGraceSecondsFromEnv(env: Record<string, string | undefined>): number {
  return wholeNumberSetting(env, "REFRESH_REUSE_GRACE_SECONDS", { fallback: DEFAULT_REFRESH_REUSE_GRACE_SECONDS, min: 0, max: MAX_REFRESH_REUSE_GRACE_SECONDS, unit: "seconds" });
}

/**
 * Marks the presented token rotated (in the caller's transaction) and names its successor, or
 * says why it cannot be used. The caller issues the successor in the same transaction; when it
 * refuses the refresh and rolls back, nothing here happened.
 *
 * Reuse grace: a token already rotated is presented again within `graceSeconds` of its first use
 * (and not expired), and its successor is stored and still unused: the response that carried the
 * successor was lost. Nothing changes; the same successor is handed out again (with a new access
 * token). Once the successor was used (the client moved on), after the window, or with
 * `graceSeconds` 0, it is a replay: the family is revoked. A successor issued by a previous
 * version (random, not derived) is not found by derivation: a retry of its parent stays a replay.
 *
 * Concurrency: every path starts by locking the presented token's row, so two presentations of
 * one token run one after the other. A retry racing the successor's own use: the successor's row
 * is locked before it is judged; used first, the retry is a replay; judged first, the retry
 * hands out the same token its holder is using, and one of the two uses is then a replay.
 */
export async function consumeRefreshToken(trx: Knex.Transaction, token: string, successorKey: Uint8Array, graceSeconds = 0): Promise<RefreshOutcome> {
  const row: RefreshTokenRow | undefined = await trx("refresh_token").where({ token_hash: hashToken(token) }).forUpdate().first();
  if (!row) return { ok: false, reason: "unknown" };
  if (row.revoked_at) return { ok: false, reason: "revoked", familyId: row.family_id };
  const now = Date.now();
  const successor = successorOf(successorKey, token);
  if (row.rotated_at) {
    if (graceSeconds > 0 && now - row.rotated_at.getTime() < graceSeconds * 1000 && row.expires_at.getTime() > now) {
      const unused = await trx("refresh_token")
        .where({ token_hash: hashToken(successor), family_id: row.family_id })
        .whereNull("rotated_at")
        .whereNull("revoked_at")
        .forUpdate()
        .first("id");
      if (unused) return { ok: true, row, successor: { token: successor, existing: true } };
    }
    await trx("refresh_token").where({ family_id: row.family_id }).whereNull("revoked_at").update({ revoked_at: new Date() });
    return { ok: false, reason: "reused", familyId: row.family_id, userId: row.user_id };
  }
  if (row.expires_at.getTime() <= now) return { ok: false, reason: "expired", familyId: row.family_id };
  await trx("refresh_token").where({ id: row.id }).update({ rotated_at: new Date(now) });
  return { ok: true, row, successor: { token: successor, existing: false } };
}

/**
 * POST /oauth/revoke: the presented token's whole family (the login it belongs to) is revoked,
 * so revoking any token of a login, also an older rotated one, ends that login. RFC 7009 2.1:
 * "the revocation of a particular token may cause the revocation of related tokens and the
 * underlying authorization grant".
 */
export async function revokeRefreshToken(knex: Knex, token: string): Promise<void> {
  const family = knex("refresh_token").where({ token_hash: hashToken(token) }).select("family_id");
  await knex("refresh_token").whereIn("family_id", family).whereNull("revoked_at").update({ revoked_at: new Date() });
}

export async function revokeAllRefreshTokens(trx: Knex | Knex.Transaction, userId: string): Promise<void> {
  await trx("refresh_token").where({ user_id: userId }).whereNull("revoked_at").update({ revoked_at: new Date() });
}
