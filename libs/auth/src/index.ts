export { roleRank, roleAtLeast, isCallerRole, roleName, roleFromName } from "./roles.js";
export type { Caller, CallerKind } from "./caller.js";

export { serviceError, readErrorDetail, type ErrorInfo } from "./errors/service-error.js";
export { AuthErrorKey } from "./errors/auth-error-keys.js";
export { CLIENT_ADDRESS_HEADER } from "./throttle/client-address-header.js";

export {
  generateSigningKeys,
  importPrivateKey,
  importPublicKey,
  type PublicKey,
  type SigningAlgorithm,
  type SigningKeys,
} from "./keys/signing-keys.js";
export { loadOrCreateSigningKeys, PRIVATE_KEY_FILE, PUBLIC_KEY_FILE, type KeySource } from "./keys/key-store.js";

export { accessClaimsSchema, type AccessClaims } from "./tokens/claims.js";
export {
  createTokenIssuer,
  type AccessTokenSubject,
  type IssuedToken,
  type TokenIssuer,
  type TokenIssuerOptions,
} from "./tokens/issuer.js";
export { createTokenVerifier, type TokenVerifier, type TokenVerifierOptions } from "./tokens/verifier.js";
export { TokenError, type TokenErrorReason } from "./tokens/token-error.js";

export { GLOBAL_SCOPE, tenantScope, scopeIncludes, singleTenant, type Scope } from "./scope/scope.js";
export { applyScope } from "./scope/apply-scope.js";
export { resolveScope, ALL_CUSTOMERS, type ResolveScopeInput } from "./scope/resolve-scope.js";
export {
  createInMemoryTenantDirectory,
  tenantBlock,
  type InMemoryTenantDirectory,
  type TenantAccess,
  type TenantDirectory,
} from "./scope/tenant-directory.js";
export { createAccessFactsCache, cacheMsFromEnv, type AccessFactsCache, type AccessFactsCacheOptions } from "./cache/access-facts-cache.js";
export { createTenantAccessCache, tenantAccessCacheMs, type TenantAccessCache, type TenantAccessCacheOptions, type TenantAccessChanges } from "./scope/tenant-access-cache.js";

export { generateTotpSecret, totpUri, verifyTotpCode, matchTotpStep, currentTotpCode, type TotpChecker } from "./totp/totp.js";
export { captchaFromEnv, createRecaptchaVerifier, DEFAULT_RECAPTCHA_ENDPOINT, type CaptchaChecker, type RecaptchaVerifierOptions } from "./captcha.js";

export { createAuthInterceptor, type AuthInterceptorOptions } from "./interceptor/auth-interceptor.js";
export type { CurrentUserCheck } from "./interceptor/current-user.js";
export { authContextKey, requireAuth, type AuthContext } from "./interceptor/auth-context.js";
export { methodPolicy, type MethodPolicy } from "./interceptor/method-policy.js";
export { sensitiveFieldRules, touchedSensitiveField, type SensitiveFieldRule } from "./interceptor/sensitive-fields.js";
export { forwardAuthInterceptor, callerHeaders } from "./interceptor/forward-auth.js";

export {
  resolveTeamAccess,
  resourceAccess,
  mayCreateInRoot,
  DEFAULT_TEAM_ACCESS_SETTINGS,
  FULL_TEAM_ACCESS,
  type TeamAccess,
  type TeamAccessSettings,
  type TeamFacts,
  type TeamMembership,
  type ResourceTeamAssignment,
  type RootCreationArea,
} from "./teams/team-access.js";
export { teamVisibilityHook, teamReadOnlyHook, visibleThroughTeamIds, type TeamColumns, type TeamScopeTarget } from "./teams/team-sql.js";
