import { Code } from "@connectrpc/connect";
import { serviceError } from "../errors/service-error.js";
import { AuthErrorKey } from "../errors/auth-error-keys.js";

/**
 * The tenants a call may touch. `global` is only ever produced for ADMIN; a tenant list is
 * never empty, so "no scope" cannot be mistaken for "no restriction".
 */
export type Scope =
  | { readonly kind: "global" }
  | { readonly kind: "tenants"; readonly customerIds: readonly [number, ...number[]] };

export const GLOBAL_SCOPE: Scope = Object.freeze({ kind: "global" });

/** A tenant scope over the given ids (deduplicated, order kept). */
export function tenantScope(first: number, ...more: number[]): Scope {
  const ids = [...new Set([first, ...more])] as [number, ...number[]];
  return Object.freeze({ kind: "tenants", customerIds: Object.freeze(ids) }) as Scope;
}

export function scopeIncludes(scope: Scope, customerId: number): boolean {
  return scope.kind === "global" || scope.customerIds.includes(customerId);
}

/**
 * The one tenant of a scope, for creates and batch operations that "require customerId and
 * cannot run across tenants". Global or multi-tenant scopes are refused (400).
 */
export function singleTenant(scope: Scope): number {
  if (scope.kind === "tenants" && scope.customerIds.length === 1) return scope.customerIds[0];
  throw serviceError(
    Code.InvalidArgument,
    AuthErrorKey.customerIdRequired,
    "this operation needs a customerId naming exactly one customer",
  );
}
