import type { CoreDeps } from "../deps.js";

/** A new password lock: someone guessing, worth an operator's look (which account, from where, and whether it now holds off everyone). */
export function logPasswordLock(deps: Pick<CoreDeps, "logger" | "attempts">, lock: "address" | "account", userId: string | null, clientAddress: string, what: string): void {
  const { policies } = deps.attempts.password;
  if (lock === "account") {
    deps.logger.warn({ userId, clientAddress, failures: policies.account.maxFailures }, `password login locked for every client address: too many ${what}`);
  } else {
    deps.logger.warn({ userId, clientAddress, failures: policies.address.maxFailures }, `password login locked for one client address: too many ${what}`);
  }
}
