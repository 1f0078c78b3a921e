import { randomBytes } from "node:crypto";

export const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
export const DATABASE_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** Short unique token, safe in stream names, subjects, consumer and database names. */
export function uniqueToken(): string {
  return `${Date.now().toString(36)}${randomBytes(4).toString("hex")}`;
}
