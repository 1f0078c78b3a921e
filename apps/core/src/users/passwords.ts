// Password hashing (argon2id) and the documented password rule.
import { randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";
import { createHashLimiter, type HashLimiter, type HashLimits } from "./hash-limiter.js";

/**
 * "Password: at least 8 characters" (document 2, Limits). Characters, not UTF-16 code units:
 * four emoji are four characters (eight units), so they are too short.
 */
export function checkPasswordRule(password: string): void {
  if (password.length < 16 && [...password].length < 8) {
    throw serviceError(Code.InvalidArgument, "user.error.passwordTooShort", "The password must have at least 8 characters", { minLength: 8 });
  }
}

export const hashPassword = (password: string) => hash(password);

/** Argon2 under one limiter (hash-limiter.ts). */
export interface HashSlots {
  hash(password: string, signal?: AbortSignal): Promise<string>;
  /**
   * Runs `check` once admitted, refused (503 auth.error.busy) before it starts when too many wait:
   * whatever it counts before calling `matches` is never left counted by a busy refusal. Only
   * `matches` holds a hashing slot.
   */
  withCheck<T>(check: (matches: typeof passwordMatches) => Promise<T>, signal?: AbortSignal): Promise<T>;
}

/** Hashing and checking on request paths. */
export interface PasswordHasher {
  /** For callers not authenticated yet (the token grants): what password spraying fills. */
  login: HashSlots;
  /** For authenticated callers (user and API client creation, password change and reset): kept free of a spray. */
  account: HashSlots;
}

function hashSlots(limiter: HashLimiter): HashSlots {
  return {
    hash: (password, signal) => limiter.run(() => hashPassword(password), signal),
    withCheck: (check, signal) => limiter.admit((slot) => check((passwordHash, password) => slot(() => passwordMatches(passwordHash, password))), signal),
  };
}

export function limitedPasswordHasher(limits: HashLimits): PasswordHasher {
  return { login: hashSlots(createHashLimiter(limits)), account: hashSlots(createHashLimiter(limits)) };
}

// Hash of a random password nobody knows, with the same parameters as real hashes.
let dummyHash: Promise<string> | undefined;

/**
 * Whether `password` matches `passwordHash`. Without a hash (unknown user or client, SSO-only
 * user) a dummy hash is verified all the same, so the answer takes as long as a wrong password
 * and its timing does not tell which accounts exist.
 */
async function passwordMatches(passwordHash: string | null | undefined, password: string): Promise<boolean> {
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
