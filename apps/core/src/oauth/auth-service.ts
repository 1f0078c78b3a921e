// AuthService: the OAuth 2.0 grants behind `POST /oauth/token`.
import { randomBytes } from "node:crypto";
import { Code, type ServiceImpl } from "@connectrpc/connect";
import { AuthErrorKey, requireAuth, roleFromName, serviceError, type AccessTokenSubject } from "@signage/auth";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import type { AuthService } from "@signage/contracts/signage/core/v1/auth_pb";
import type { CoreDeps } from "../deps.js";
import { findUserById, userView } from "../users/user-repository.js";
import type { UserRow } from "../users/user-row.js";
import { mustSetUp2fa } from "../users/user-mapper.js";
import { consumeRefreshToken, issueRefreshToken, revokeRefreshToken } from "./refresh-tokens.js";
import { useThrottledTotpCode } from "../users/totp-use.js";
import { clientAddressOf } from "./client-address.js";
import { logPasswordLock } from "./password-lock-log.js";
import type { Knex } from "knex";
import { customerIdOf } from "@signage/runtime";

const invalidGrant = (message: string) => serviceError(Code.InvalidArgument, "oauth.error.invalid_grant", message);
const invalidClient = () => serviceError(Code.Unauthenticated, "oauth.error.invalid_client", "Unknown client or wrong client secret");

/** "restricted: true disables all access"; expiration only locks devices out ("expiration triggers device lockout"), not users. */
function refuseBlockedCustomer(row: { customer_restricted: boolean }) {
  if (row.customer_restricted) throw serviceError(Code.PermissionDenied, "oauth.error.access_denied", "The customer is restricted");
}

function userSubject(row: UserRow): AccessTokenSubject {
  return {
    subject: row.email,
    userId: row.id,
    customerId: row.customer_id,
    role: roleFromName(row.role) ?? Role.VIEWER,
    networkOwner: row.customer_network_owner,
    twoFactor: row.use_2fa,
    // Customer "force2FA | boolean | mandatory 2FA for all users", or the user's own flag, while
    // the user has no 2FA (mustSetUp2fa). Every service holds such a user to the methods that get
    // it compliant; a refresh issues the value as it is then (core itself reads it per call).
    twoFactorSetupRequired: mustSetUp2fa(row),
    kind: "user",
  };
}

export function authService(deps: CoreDeps): Partial<ServiceImpl<typeof AuthService>> {
  const { knex, newId, issuer } = deps;

  /** A new access token, with a new login's refresh token or the successor `consumeRefreshToken` named. */
  async function tokensFor(db: Knex | Knex.Transaction, row: UserRow, rotation?: { familyId: string; successor: { token: string; existing: boolean } }) {
    const access = await issuer.issueAccessToken(userSubject(row));
    const refreshToken = rotation?.successor.existing
      ? rotation.successor.token
      : await issueRefreshToken(db, newId, row.id, deps.refreshTokenTtlSeconds, rotation?.familyId, rotation?.successor.token);
    return { accessToken: access.token, tokenType: "Bearer", expiresIn: BigInt(access.expiresIn), refreshToken };
  }

  return {
    async issueToken(req, ctx) {
      switch (req.grantType) {
        case "password": {
          const { username, password } = req;
          if (!username || !password) throw serviceError(Code.InvalidArgument, "oauth.error.invalid_request", "username and password are required");
          // Admitted for a password check first (a busy refusal counts nothing), then the guess
          // is counted per username, known or not, and client address before the password is
          // looked at (attempt-throttle.ts): a locked one, or one past a limit, is refused unchecked.
          const clientAddress = clientAddressOf(ctx);
          const { guess, row, matches } = await deps.passwords.login.withCheck(async (passwordMatches) => {
            const guess = await deps.attempts.password.reserve(knex, username, clientAddress);
            const row: UserRow | undefined = await userView(knex, { kind: "global" }).whereRaw("lower(u.email) = lower(?)", [username]).first();
            // One answer for unknown user and wrong password: no account probing. One argon2
            // verification on every path (a dummy hash when there is no usable one), so the
            // response time does not tell an existing account either.
            const matches = await passwordMatches(row?.username_password_login_enabled ? row.password_hash : null, password);
            return { guess, row, matches };
          }, ctx.signal);
          if (!row || !matches) {
            const { lockedNow } = await deps.attempts.password.fail(knex, guess);
            // Someone guessing: worth an operator's look (an unknown username has no user id).
            if (lockedNow) logPasswordLock(deps, lockedNow, row?.id ?? null, clientAddress, "wrong passwords");
            throw invalidGrant("Wrong username or password");
          }
          // The password was right: its count starts over, whatever the checks below answer.
          await deps.attempts.password.succeed(knex, guess);
          if (!row.oauth_password_flow_enabled) throw serviceError(Code.InvalidArgument, "oauth.error.unauthorized_client", "The password grant is disabled for this user");
          refuseBlockedCustomer(row);
          if (row.use_2fa) {
            if (!req.totp) throw serviceError(Code.PermissionDenied, "auth.error.totpRequired", "This user has 2FA: send the current code as `totp`");
            // One-time: a code already accepted (login, x-totp, confirmation) is refused (RFC 6238 5.2).
            // Wrong codes count against the user's TOTP (shared with x-totp), not its password.
            if (!(await useThrottledTotpCode(knex, deps.attempts.totp, deps.logger, row.id, row.totp_secret, req.totp))) {
              throw serviceError(Code.PermissionDenied, "auth.error.totpInvalid", "The TOTP code is not valid");
            }
          }
          await knex("app_user").where({ id: row.id }).update({ last_login: new Date(), last_activity: new Date() });
          return tokensFor(knex, row);
        }
        case "refresh_token": {
          if (!req.refreshToken) throw serviceError(Code.InvalidArgument, "oauth.error.invalid_request", "refresh_token is required");
          const presented = req.refreshToken;
          // One transaction: the presented token is consumed only together with issuing its
          // successor. A refused refresh (restricted customer, login method disabled) rolls
          // back and leaves it unused, so a later retry is not taken for a replay that revokes
          // the login; a replay's family revocation is returned, not thrown, so it commits.
          // A retry of a token used moments ago whose successor is still unused (the response
          // was lost) gets that same successor again (REFRESH_REUSE_GRACE_SECONDS, refresh-tokens.ts).
          const result = await knex.transaction(async (trx) => {
            const outcome = await consumeRefreshToken(trx, presented, deps.refreshSuccessorKey, deps.refreshReuseGraceSeconds);
            if (!outcome.ok) return outcome;
            const row = await findUserById(trx, outcome.row.user_id);
            if (!row) throw invalidGrant("The user no longer exists");
            refuseBlockedCustomer(row);
            // Refresh tokens come from the password grant only: when the user may no longer log
            // in that way ("usernamePasswordLoginEnabled, oauthPasswordFlowEnabled | login methods
            // allowed"), the grant is no longer valid either.
            if (!row.username_password_login_enabled || !row.oauth_password_flow_enabled) {
              throw invalidGrant("Password login is disabled for this user");
            }
            const tokens = await tokensFor(trx, row, { familyId: outcome.row.family_id, successor: outcome.successor });
            return { ok: true as const, tokens, retried: outcome.successor.existing, familyId: outcome.row.family_id };
          });
          if (!result.ok) {
            // A replay revoked a login: a leaked token, or a client presenting an old one. Worth an operator's look.
            if (result.reason === "reused") deps.logger.warn({ familyId: result.familyId, userId: result.userId }, "rotated refresh token presented again: login revoked");
            throw invalidGrant(`The refresh token is ${result.reason}`);
          }
          if (result.retried) deps.logger.info({ familyId: result.familyId }, "refresh token presented again within the reuse grace: its unused successor handed out again");
          return result.tokens;
        }
        case "client_credentials": {
          if (!req.clientId || !req.clientSecret) throw invalidClient();
          const client = await knex("api_client as a")
            .join("customer as c", "c.id", "a.customer_id")
            .select("a.*", { customer_restricted: "c.restricted", customer_expiration_date: "c.expiration_date" })
            .select(knex.raw("c.subreseller_since IS NOT NULL as network_owner"))
            .where("a.client_id", req.clientId)
            .first();
          // An unknown client id costs one argon2 verification too (dummy hash): same answer, same time.
          const secret = req.clientSecret;
          const matches = await deps.passwords.login.withCheck((passwordMatches) => passwordMatches(client?.secret_hash, secret), ctx.signal);
          if (!client || !matches) throw invalidClient();
          refuseBlockedCustomer(client);
          const access = await issuer.issueAccessToken({
            subject: client.client_id,
            userId: client.client_id,
            customerId: Number(client.customer_id),
            role: roleFromName(client.role) ?? Role.VIEWER,
            networkOwner: client.network_owner,
            twoFactor: false,
            kind: "client",
          });
          return { accessToken: access.token, tokenType: "Bearer", expiresIn: BigInt(access.expiresIn) };
        }
        case "":
          // RFC 6749 5.2: a missing required parameter is invalid_request, not an unsupported grant.
          throw serviceError(Code.InvalidArgument, "oauth.error.invalid_request", "grant_type is required: password, refresh_token or client_credentials");
        default:
          throw serviceError(Code.InvalidArgument, "oauth.error.unsupported_grant_type", `Unsupported grant_type '${req.grantType}'; use password, refresh_token or client_credentials`);
      }
    },

    async revokeToken(req) {
      await revokeRefreshToken(knex, req.token);
      return {};
    },

    async createApiClient(req, ctx) {
      requireAuth(ctx);
      const role = roleFromName(req.role);
      if (!role || role === Role.PUBLIC) throw serviceError(Code.InvalidArgument, "oauth.error.invalid_role", `Unknown role '${req.role}'`);
      const name = req.name.trim();
      if (!name) throw serviceError(Code.InvalidArgument, "oauth.error.name_required", "name is required");
      // Names are at most 255 characters, as customer, team and UI profile names.
      if (name.length > 255) throw serviceError(Code.InvalidArgument, "oauth.error.name_too_long", "name must be at most 255 characters", { field: "name", maxLength: 255 });
      const customer = await knex("customer").where({ id: customerIdOf(req.customerId) }).first();
      if (!customer) throw serviceError(Code.NotFound, "customer.error.notFound", `Customer ${req.customerId} not found`);
      const clientId = `client-${newId()}`;
      const clientSecret = randomBytes(32).toString("base64url");
      await knex("api_client").insert({ client_id: clientId, secret_hash: await deps.passwords.account.hash(clientSecret, ctx.signal), customer_id: customer.id, name, role: req.role });
      return { clientId, clientSecret };
    },
  };
}
