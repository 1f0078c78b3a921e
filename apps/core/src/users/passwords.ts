// Password hashing (argon2id) and the documented password rule.
import { hash, verify } from "@node-rs/argon2";
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";

/** "Password: at least 8 characters" (document 2, Limits). */
export function checkPasswordRule(password: string): void {
  if (password.length < 8) {
    throw serviceError(Code.InvalidArgument, "user.error.passwordTooShort", "The password must have at least 8 characters", { minLength: 8 });
  }
}

export const hashPassword = (password: string) => hash(password);

export async function passwordMatches(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
