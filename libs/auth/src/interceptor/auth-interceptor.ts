import { Code, type Interceptor } from "@connectrpc/connect";
import type { DescField } from "@bufbuild/protobuf";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import type { Caller } from "../caller.js";
import type { CaptchaChecker } from "../captcha.js";
import { AuthErrorKey } from "../errors/auth-error-keys.js";
import { serviceError } from "../errors/service-error.js";
import { roleAtLeast, roleName } from "../roles.js";
import { resolveScope } from "../scope/resolve-scope.js";
import { tenantBlock, type TenantDirectory } from "../scope/tenant-directory.js";
import { TokenError } from "../tokens/token-error.js";
import type { TokenVerifier } from "../tokens/verifier.js";
import type { TotpChecker } from "../totp/totp.js";
import type { CurrentUserCheck } from "./current-user.js";
import { authContextKey } from "./auth-context.js";
import { methodPolicy } from "./method-policy.js";
import { peekCustomerId } from "./requested-customer.js";
import { touchedSensitiveField } from "./sensitive-fields.js";

export interface AuthInterceptorOptions {
  verifier: TokenVerifier;
  directory: TenantDirectory;
  /** Needed when sensitive methods may be called by users with 2FA on. */
  totp?: TotpChecker;
  /** Where the users live: each user call is checked against the user as they are now. */
  currentUser?: CurrentUserCheck;
  /** CAPTCHA on sensitive methods; off when absent. */
  captcha?: CaptchaChecker;
  /** Clock in ms for customer expiration; injectable for tests. */
  now?: () => number;
}

/**
 * Server interceptor: default-deny on methods without `min_role`, token verification, the
 * caller's customer still usable (not deleted, restricted or expired: checked on every call,
 * so a token is refused at once, not at its expiry), role check, the duty to set up 2FA first
 * (a forced user only reaches methods marked `allowed_before_2fa_setup`), sensitive checks
 * (method option, or a set `sensitive_field`), and the customer scope put into the handler context.
 */
export function createAuthInterceptor({ verifier, directory, totp, captcha, currentUser, now = Date.now }: AuthInterceptorOptions): Interceptor {
  return (next) => async (req) => {
    const policy = methodPolicy(req.method);
    if (policy.minRole === Role.UNSPECIFIED) {
      throw serviceError(Code.PermissionDenied, AuthErrorKey.noRole, "method has no minimum role and is refused");
    }
    if (policy.minRole === Role.PUBLIC) {
      // CAPTCHA guards against bots, so it applies to sensitive public methods too.
      if (policy.sensitive) await checkCaptcha(captcha, req.header, undefined);
      return next(req);
    }

    let caller = await currentCaller(await authenticate(verifier, req.header), directory, now());
    // The user's 2FA setting now, not when the token was issued: turning 2FA on guards sensitive calls at
    // once, and setting it up (or the duty to, imposed or lifted) counts at once where the users live.
    if (currentUser && caller.kind === "user") {
      const current = await currentUser.check(caller, req.contextValues);
      caller = { ...caller, twoFactor: current.twoFactor, twoFactorSetupRequired: current.twoFactorSetupRequired };
    }
    if (!roleAtLeast(caller.role, policy.minRole)) {
      throw serviceError(Code.PermissionDenied, AuthErrorKey.forbidden, "role too low for this operation", {
        requiredRole: roleName(policy.minRole),
        role: roleName(caller.role),
      });
    }
    if (mustSetUpTwoFactor(caller) && !policy.allowedBefore2faSetup) {
      throw serviceError(
        Code.PermissionDenied,
        AuthErrorKey.twoFactorSetupRequired,
        "2FA must be set up first: this user (or its customer) requires two-factor authentication. Set it up with POST /api/user/2fa?enable=true and confirm it with &totp=<code>; then refresh the access token",
      );
    }
    const sensitive = policy.sensitive || (!req.stream && touchedSensitiveField(req.method.input, req.message, policy.sensitiveFields) !== undefined);
    if (sensitive) {
      await checkCaptcha(captcha, req.header, caller);
      // An empty header is no code: the parameter may still carry one.
      await checkTotp(totp, req.header.get("x-totp")?.trim() || totpParameter(req, policy.totpCodeField), caller);
    }

    const peeked = policy.customerIdField
      ? await peekCustomerId(req, policy.customerIdField)
      : { requestedCustomerId: undefined, req };
    const scope = await resolveScope({ caller, requestedCustomerId: peeked.requestedCustomerId, directory });
    peeked.req.contextValues.set(authContextKey, { caller, scope });
    return next(peeked.req);
  };
}

/**
 * Customer "force2FA | boolean | mandatory 2FA for all users" (document 2), and the user's own
 * forceToSet2FA: a user who has not set up 2FA yet is held to what gets it compliant, or lets it
 * leave instead (DELETE /api/user/myAccount). API clients have no 2FA to set up and device users
 * sign in on players, so neither is held back.
 */
function mustSetUpTwoFactor(caller: Caller): boolean {
  return caller.twoFactorSetupRequired === true && caller.kind === "user" && caller.role !== Role.DEVICE_USER;
}

async function authenticate(verifier: TokenVerifier, header: Headers): Promise<Caller> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header.get("authorization") ?? "");
  if (!match) throw serviceError(Code.Unauthenticated, AuthErrorKey.unauthorized, "bearer token required");
  try {
    return await verifier.verify(match[1]);
  } catch (err) {
    if (!(err instanceof TokenError)) throw err;
    throw serviceError(Code.Unauthenticated, AuthErrorKey.unauthorized, err.message, { reason: err.reason });
  }
}

/**
 * "restricted: true disables all access", a deleted customer likewise; "expiration triggers
 * device lockout" (document 2: restricted -> "all access blocked", expiration -> "device
 * lockout"), so an expired customer's devices are refused and its users are not. The
 * directory's current network-owner status replaces the token's claim, so a demotion takes
 * effect at once too.
 */
async function currentCaller(caller: Caller, directory: TenantDirectory, now: number): Promise<Caller> {
  const access = await directory.access(caller.customerId);
  switch (tenantBlock(access, now)) {
    case "deleted":
      throw serviceError(Code.Unauthenticated, AuthErrorKey.customerDeleted, "the caller's customer no longer exists", { customerId: caller.customerId });
    case "restricted":
      throw serviceError(Code.PermissionDenied, AuthErrorKey.customerRestricted, "the caller's customer is restricted: all access is blocked", { customerId: caller.customerId });
    case "expired":
      if (caller.role === Role.DEVICE_USER) throw serviceError(Code.PermissionDenied, AuthErrorKey.customerExpired, "the device's customer has expired: devices are locked out", { customerId: caller.customerId });
      break;
  }
  if (access && access.networkOwner !== caller.networkOwner) return { ...caller, networkOwner: access.networkOwner };
  return caller;
}

/** The method's `totp_code` request field (`POST /api/user/2fa?totp=<code>`), which counts as the `x-totp` header would. */
function totpParameter(req: { stream: boolean; message?: unknown }, field: DescField | undefined): string | undefined {
  if (!field || req.stream) return undefined;
  const value = (req.message as Record<string, unknown> | undefined)?.[field.localName];
  return typeof value === "string" ? value : undefined;
}

async function checkTotp(totp: TotpChecker | undefined, supplied: string | undefined, caller: Caller): Promise<void> {
  if (!caller.twoFactor) return;
  const code = supplied?.trim();
  if (!code) throw serviceError(Code.PermissionDenied, AuthErrorKey.totpRequired, "x-totp header required (or the method's totp parameter)");
  // Fail closed: a server that cannot check codes must not let sensitive calls through.
  if (!totp) throw serviceError(Code.Internal, AuthErrorKey.totpUnavailable, "TOTP verification is not configured");
  if (!(await totp.verify(caller, code))) {
    throw serviceError(Code.PermissionDenied, AuthErrorKey.totpInvalid, "x-totp code invalid");
  }
}

async function checkCaptcha(captcha: CaptchaChecker | undefined, header: Headers, caller: Caller | undefined) {
  if (!captcha) return;
  const response = header.get("g-recaptcha-response")?.trim();
  if (!response) {
    throw serviceError(Code.PermissionDenied, AuthErrorKey.captchaRequired, "g-recaptcha-response header required");
  }
  if (!(await captcha.verify(response, caller))) {
    throw serviceError(Code.PermissionDenied, AuthErrorKey.captchaInvalid, "CAPTCHA response invalid");
  }
}
