// Refresh tokens: opaque random strings, stored only as SHA-256 hashes,
// rotated on every use. Presenting an already-rotated token means it leaked:
// the whole family (that login) is revoked.
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
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await trx("refresh_token").insert({
    id: newId(),
    token_hash: hashToken(token),
    user_id: userId,
    family_id: familyId,
    expires_at: new Date(Date.now() + ttlSeconds * 1000),
  });
  return token;
}

export type RefreshOutcome = { ok: true; row: RefreshTokenRow } | { ok: false; reason: "unknown" | "expired" | "revoked" | "reused" };

/** Marks the presented token rotated (in the caller's transaction) or says why it cannot be used. */
export async function consumeRefreshToken(trx: Knex.Transaction, token: string): Promise<RefreshOutcome> {
  const row: RefreshTokenRow | undefined = await trx("refresh_token").where({ token_hash: hashToken(token) }).forUpdate().first();
  if (!row) return { ok: false, reason: "unknown" };
  if (row.revoked_at) return { ok: false, reason: "revoked" };
  if (row.rotated_at) {
    await trx("refresh_token").where({ family_id: row.family_id }).whereNull("revoked_at").update({ revoked_at: new Date() });
    return { ok: false, reason: "reused" };
  }
  if (row.expires_at.getTime() <= Date.now()) return { ok: false, reason: "expired" };
  await trx("refresh_token").where({ id: row.id }).update({ rotated_at: new Date() });
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
