// Password hashing (argon2id) and the documented password rule.
import { randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";
import type { HashLimiter } from "./hash-limiter.js";

/** "Password: at least 8 characters" (document 2, Limits). */
export function checkPasswordRule(password: string): void {
  if (password.length < 8) {
    throw serviceError(Code.InvalidArgument, "user.error.passwordTooShort", "The password must have at least 8 characters", { minLength: 8 });
  }
}

export const hashPassword = (password: string) => hash(password);

/** Hashing and checking on request paths, under the process's hash limiter (hash-limiter.ts). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  matches(passwordHash: string | null | undefined, password: string): Promise<boolean>;
}

export function limitedPasswordHasher(limiter: HashLimiter): PasswordHasher {
  return {
    hash: (password) => limiter.run(() => hashPassword(password)),
    matches: (passwordHash, password) => limiter.run(() => passwordMatches(passwordHash, password)),
  };
}

// Hash of a random password nobody knows, with the same parameters as real hashes.
let dummyHash: Promise<string> | undefined;

/**
 * Whether `password` matches `passwordHash`. Without a hash (unknown user or client, SSO-only
 * user) a dummy hash is verified all the same, so the answer takes as long as a wrong password
 * and its timing does not tell which accounts exist.
 */
export async function passwordMatches(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hash(randomBytes(24).toString("base64url"));
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
