// Refresh tokens: opaque random strings, stored only as SHA-256 hashes,
// rotated on every use. Presenting an already-rotated token means it leaked:
// the whole family (that login) is revoked. Except shortly after its use, while
// its successor is still unused (the reuse grace, below): then the response that
// carried the successor was most likely lost, and the retry gets a new successor;
// presenting that superseded successor later is a replay too.
import { createHash, randomBytes } from "node:crypto";
import type { Knex } from "knex";
import type { IdGenerator } from "@signage/db";

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export interface RefreshTokenRow {
  id: string;
  user_id: string;
  family_id: string;
  expires_at: Date;
  rotated_at: Date | null;
  revoked_at: Date | null;
}

export async function issueRefreshToken(
  trx: Knex | Knex.Transaction,
  newId: IdGenerator,
  userId: string,
  ttlSeconds: number,
  familyId: string = newId(),
  /** The token this one replaces (rotation); none for a login's first token. */
  parentId?: string,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await trx("refresh_token").insert({
    id: newId(),
    token_hash: hashToken(token),
    user_id: userId,
    family_id: familyId,
    parent_id: parentId ?? null,
    expires_at: new Date(Date.now() + ttlSeconds * 1000),
  });
  return token;
}

export type RefreshOutcome =
  | { ok: true; row: RefreshTokenRow; /** a retry within the reuse grace: the unused successor was revoked */ reissued?: boolean }
  | { ok: false; reason: "unknown" | "expired" | "revoked" | "reused" };

export const DEFAULT_REFRESH_REUSE_GRACE_SECONDS = 30;

/** `REFRESH_REUSE_GRACE_SECONDS`: whole seconds >= 0, default 30; 0 turns the grace off. */
export function refreshReuseGraceSecondsFromEnv(env: Record<string, string | undefined>): number {
  const raw = env.REFRESH_REUSE_GRACE_SECONDS?.trim();
  if (!raw) return DEFAULT_REFRESH_REUSE_GRACE_SECONDS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`REFRESH_REUSE_GRACE_SECONDS must be a whole number of seconds >= 0, got '${raw}'`);
  return value;
}

/**
 * Marks the presented token rotated (in the caller's transaction) or says why it cannot be used.
 * The caller issues the successor (parent: the presented token) in the same transaction; when it
 * refuses the refresh and rolls back, nothing here happened.
 *
 * Reuse grace: a token already rotated is presented again within `graceSeconds` of its first use
 * (and not expired), and the login's live token (the one to be presented next) is still a
 * successor of this token, never used. The response that carried that successor was lost; that
 * successor is revoked and `ok` comes back with `reissued`, so the caller issues a new one in its
 * place: one chain goes on. Once the successor was used (the client moved on), after the window,
 * or with `graceSeconds` 0, it is a replay: the family is revoked.
 *
 * A successor issued by a previous version carries no parent_id: a retry of its parent gets no
 * grace (a replay, as before).
 *
 * Concurrency: every path starts by locking the presented token's row, so two presentations of
 * one token run one after the other, and the second sees what the first committed (its new
 * successor, which it supersedes in turn). The live token is locked too before it is judged
 * (FOR UPDATE). When a refresh with that live token holds it, the retry waits; once that commits,
 * READ COMMITTED re-checks the row (now rotated: left out) and the successor it issued is not in
 * the statement's snapshot, so nothing qualifies and the retry is a replay that revokes the
 * family, the new successor too. When the retry locks it first, the refresh with it waits and
 * then finds it revoked. Either way one chain at most goes on; the partial unique index
 * refresh_token_family_live_unique backs this: a family never has two live tokens.
 */
export async function consumeRefreshToken(trx: Knex.Transaction, token: string, graceSeconds = 0): Promise<RefreshOutcome> {
  const row: RefreshTokenRow | undefined = await trx("refresh_token").where({ token_hash: hashToken(token) }).forUpdate().first();
  if (!row) return { ok: false, reason: "unknown" };
  if (row.revoked_at) {
    // A successor superseded within the reuse grace while its login goes on: whoever presents it
    // received the response the retry said was lost, so one of the two is not the client. A replay
    // (RFC 9700 4.14.2): the login is revoked. A login revoked already has nothing left to revoke.
    const revoked = await trx("refresh_token").where({ family_id: row.family_id }).whereNull("revoked_at").update({ revoked_at: new Date() });
    return { ok: false, reason: revoked > 0 ? "reused" : "revoked" };
  }
  const now = Date.now();
  if (row.rotated_at) {
    if (graceSeconds > 0 && now - row.rotated_at.getTime() < graceSeconds * 1000 && row.expires_at.getTime() > now) {
      const live: Array<{ id: string; parent_id: string | null }> = await trx("refresh_token")
        .where({ family_id: row.family_id })
        .whereNull("rotated_at")
        .whereNull("revoked_at")
        .forUpdate()
        .select("id", "parent_id");
      if (live.length > 0 && live.every((t) => t.parent_id === row.id)) {
        await trx("refresh_token").whereIn("id", live.map((t) => t.id)).whereNull("rotated_at").whereNull("revoked_at").update({ revoked_at: new Date(now) });
        return { ok: true, row, reissued: true };
      }
    }
    await trx("refresh_token").where({ family_id: row.family_id }).whereNull("revoked_at").update({ revoked_at: new Date() });
    return { ok: false, reason: "reused" };
  }
  if (row.expires_at.getTime() <= now) return { ok: false, reason: "expired" };
  await trx("refresh_token").where({ id: row.id }).update({ rotated_at: new Date(now) });
  return { ok: true, row };
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
