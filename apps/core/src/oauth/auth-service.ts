// AuthService: the OAuth 2.0 grants behind `POST /oauth/token`.
import { randomBytes } from "node:crypto";
import { Code, type ServiceImpl } from "@connectrpc/connect";
import { requireAuth, roleFromName, serviceError, verifyTotpCode, type AccessTokenSubject } from "@signage/auth";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import type { AuthService } from "@signage/contracts/signage/core/v1/auth_pb";
import type { CoreDeps } from "../deps.js";
import { findUserById, userView } from "../users/user-repository.js";
import type { UserRow } from "../users/user-row.js";
import { hashPassword, passwordMatches } from "../users/passwords.js";
import { consumeRefreshToken, issueRefreshToken, revokeRefreshToken } from "./refresh-tokens.js";
import { customerIdOf } from "../int64-ids.js";

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
    kind: "user",
  };
}

export function authService(deps: CoreDeps): Partial<ServiceImpl<typeof AuthService>> {
  const { knex, newId, issuer } = deps;

  async function tokensFor(row: UserRow, familyId?: string) {
    const access = await issuer.issueAccessToken(userSubject(row));
    const refreshToken = await issueRefreshToken(knex, newId, row.id, deps.refreshTokenTtlSeconds, familyId);
    return { accessToken: access.token, tokenType: "Bearer", expiresIn: BigInt(access.expiresIn), refreshToken };
  }

  return {
    async issueToken(req) {
      switch (req.grantType) {
        case "password": {
          if (!req.username || !req.password) throw serviceError(Code.InvalidArgument, "oauth.error.invalid_request", "username and password are required");
          const row: UserRow | undefined = await userView(knex, { kind: "global" }).whereRaw("lower(u.email) = lower(?)", [req.username]).first();
          // One answer for unknown user and wrong password: no account probing.
          if (!row || !row.username_password_login_enabled || !(await passwordMatches(row.password_hash, req.password))) {
            throw invalidGrant("Wrong username or password");
          }
          if (!row.oauth_password_flow_enabled) throw serviceError(Code.InvalidArgument, "oauth.error.unauthorized_client", "The password grant is disabled for this user");
          refuseBlockedCustomer(row);
          if (row.use_2fa) {
            if (!req.totp) throw serviceError(Code.PermissionDenied, "auth.error.totpRequired", "This user has 2FA: send the current code as `totp`");
            if (!row.totp_secret || !verifyTotpCode(row.totp_secret, req.totp)) throw serviceError(Code.PermissionDenied, "auth.error.totpInvalid", "The TOTP code is not valid");
          }
          await knex("app_user").where({ id: row.id }).update({ last_login: new Date(), last_activity: new Date() });
          return tokensFor(row);
        }
        case "refresh_token": {
          if (!req.refreshToken) throw serviceError(Code.InvalidArgument, "oauth.error.invalid_request", "refresh_token is required");
          const outcome = await knex.transaction((trx) => consumeRefreshToken(trx, req.refreshToken!));
          if (!outcome.ok) throw invalidGrant(`The refresh token is ${outcome.reason}`);
          const row = await findUserById(knex, outcome.row.user_id);
          if (!row) throw invalidGrant("The user no longer exists");
          refuseBlockedCustomer(row);
          return tokensFor(row, outcome.row.family_id);
        }
        case "client_credentials": {
          if (!req.clientId || !req.clientSecret) throw invalidClient();
          const client = await knex("api_client as a")
            .join("customer as c", "c.id", "a.customer_id")
            .select("a.*", { customer_restricted: "c.restricted", customer_expiration_date: "c.expiration_date" })
            .select(knex.raw("c.subreseller_since IS NOT NULL as network_owner"))
            .where("a.client_id", req.clientId)
            .first();
          if (!client || !(await passwordMatches(client.secret_hash, req.clientSecret))) throw invalidClient();
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
      await knex("api_client").insert({ client_id: clientId, secret_hash: await hashPassword(clientSecret), customer_id: customer.id, name, role: req.role });
      return { clientId, clientSecret };
    },
  };
}
