// UserService: document 2 "User" and "Teams, tags, users, quick filters" (users rows).
import { Code, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import { AuthErrorKey, generateTotpSecret, requireAuth, roleAtLeast, roleFromName, roleName, resourceAccess, serviceError, singleTenant, teamVisibilityHook, totpUri, type AuthContext } from "@signage/auth";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import type { UserService, UserFields } from "@signage/contracts/signage/core/v1/user_pb";
import type { CoreDeps } from "../deps.js";
import { assignmentFacts } from "../teams/assignments-json.js";
import { findUserByEmail, findUserById, userView } from "./user-repository.js";
import { forceToSet2fa, userToMessage } from "./user-mapper.js";
import { checkAdminOnlyUserFields, checkAssignableRole, checkUserEnumValues, checkAuthProviderUnchanged, checkCreateCustomerId, checkCreatePassword, checkOwnProfileFields, normalizeEmail } from "./user-rules.js";
import { missingParameter, parseTeamIdsParam, requireParameter, requireWritable, unknownTeams } from "@signage/runtime";
import { authProviderName, userColumns } from "./user-columns.js";
import { checkPasswordRule } from "./passwords.js";
import { checkProfilePicture } from "./profile-picture.js";
import { isUniqueViolation } from "../customers/customer-repository.js";
import { revokeAllRefreshTokens } from "../oauth/refresh-tokens.js";
import { useTotpCode } from "./totp-use.js";
import { totpSubject } from "../oauth/attempt-throttle.js";
import { TWO_FACTOR_OFF } from "./two-factor-off.js";
import { clientAddressOf } from "../oauth/client-address.js";
import { logPasswordLock } from "../oauth/password-lock-log.js";
import { listUsers } from "./user-list.js";
import type { UserRow } from "./user-row.js";
import { currentUserRowKey } from "./current-user-check.js";
import type { CoreTeams } from "../teams/core-teams.js";

const notFound = (email: string) => serviceError(Code.NotFound, "user.error.notFound", `User '${email}' not found`, { email });

/** A user turning its own 2FA off while its customer has "force2FA | mandatory 2FA for all users" (409). */
const twoFactorMandatory = (user: UserRow) =>
  serviceError(
    Code.FailedPrecondition,
    "user.error.twoFactorMandatory",
    "2FA cannot be turned off: this user's customer requires two-factor authentication for all users (force2FA)",
    { email: user.email, customerId: Number(user.customer_id) },
  );

export function userService(deps: CoreDeps, teams?: CoreTeams): Partial<ServiceImpl<typeof UserService>> {
  const { knex, newId } = deps;

  async function self(auth: AuthContext): Promise<UserRow> {
    const row = auth.caller.kind === "user" ? await findUserById(knex, auth.caller.userId) : undefined;
    if (!row) throw serviceError(Code.NotFound, "user.error.notFound", "The calling user no longer exists");
    return row;
  }

  /**
   * The user named by `email`. Users are team-assignable ("restricted = sees only team-assigned
   * resources"): one the caller's teams hide is as missing as one that does not exist, as in
   * /api/v2/user; to change another user (`write`), a read-only assignment refuses (403).
   */
  async function inScope(ctx: HandlerContext, rawEmail: string | undefined, write = false): Promise<UserRow> {
    const auth = requireAuth(ctx);
    // "?email=<EMAIL>" is required: without it a 400 naming it, not "User '' not found".
    const email = requireParameter(rawEmail, "email");
    const row = await findUserByEmail(knex, auth.scope, email);
    if (!row) throw notFound(email);
    if (!teams || row.id === auth.caller.userId) return row;
    const access = await teams.access(ctx);
    const facts = assignmentFacts(row.team_assignments);
    if (resourceAccess(access, facts) === "none") throw notFound(email);
    if (write) requireWritable(access, "user", row.id, facts);
    return row;
  }

  /** What the interceptor answers a role below `min_role`, for operations whose OWNER rule depends on the target. */
  function ownerRequired(auth: AuthContext) {
    return serviceError(Code.PermissionDenied, AuthErrorKey.forbidden, "role too low for this operation", {
      requiredRole: roleName(Role.OWNER),
      role: roleName(auth.caller.role),
    });
  }

  /**
   * Deletes one user. The last ADMIN is never deleted: "ADMIN | all tenants (global)" is the only
   * role that creates customers, promotes network owners and manages the platform customer, so
   * without one nobody could (the platform customer "cannot be restricted" for the same reason).
   * The check and the delete share one transaction under a lock, so two ADMINs deleting each
   * other concurrently cannot both succeed.
   */
  async function deleteUserRow(row: UserRow): Promise<void> {
    await knex.transaction(async (trx) => {
      if (row.role === "ADMIN") {
        await trx.raw("SELECT pg_advisory_xact_lock(hashtext('core.last-admin'))");
        const other = await trx("app_user").where({ role: "ADMIN" }).whereNot({ id: row.id }).first("id");
        if (!other) {
          throw serviceError(Code.FailedPrecondition, "user.error.lastAdmin", "The last ADMIN cannot be deleted: create another ADMIN first", { email: row.email });
        }
      }
      await trx("app_user").where({ id: row.id }).delete();
    });
  }

  /** The caller may not manage a user whose role is above its own. */
  function checkManageable(auth: AuthContext, target: UserRow) {
    checkAssignableRole(auth.caller, roleFromName(target.role), false);
  }

  return {
    async listUsers(req, ctx) {
      return listUsers(ctx, knex, req.query, await teams?.access(ctx));
    },

    async getMe(_req, ctx) {
      return { user: userToMessage(ctx.values.get(currentUserRowKey) ?? (await self(requireAuth(ctx)))) };
    },

    async listSimpleUsers(_req, ctx) {
      const auth = requireAuth(ctx);
      // "GET `/api/user/simple?customerId=<id>` (email and name only)": an unpaged array (no
      // page/size to cap), so its answer is bounded by scope instead. "Requiredness of customerId
      // is per operation": here an ADMIN's global scope ("ADMIN | all tenants (global)", or
      // customerId=-1) would be every user of every tenant in one answer, so the ADMIN names the
      // tenant (400, never narrowed to its own tenant). A network owner keeps "all member tenants"
      // (its network), other roles their own tenant; /api/v2/user pages across tenants.
      if (auth.scope.kind === "global") {
        throw serviceError(
          Code.InvalidArgument,
          AuthErrorKey.customerIdRequired,
          "GET /api/user/simple lists one tenant's users: name it with customerId=<id> (GET /api/v2/user pages through users across tenants)",
          { parameter: "customerId" },
        );
      }
      const query = userView(knex, auth.scope).clearSelect().select("u.email", "u.name").orderBy("u.email");
      // Users are team-assignable: "restricted = sees only team-assigned resources", as in /api/v2/user.
      if (teams) teamVisibilityHook(await teams.access(ctx))(query, { column: (c) => `u.${c}` });
      const rows = await query;
      return { users: rows.map((r: { email: string; name: string | null }) => ({ email: r.email, name: r.name ?? undefined })) };
    },

    async createUser(req, ctx) {
      const auth = requireAuth(ctx);
      const fields = req.user ?? ({} as UserFields);
      checkCreateCustomerId(auth.caller, req.customerId);
      // Non-admins always create in their own tenant; ADMIN in the selected one, or its own.
      const customerId = auth.scope.kind === "global" ? auth.caller.customerId : singleTenant(auth.scope);
      const email = normalizeEmail(fields.email);
      checkAssignableRole(auth.caller, fields.role, true);
      checkUserEnumValues(fields);
      checkAdminOnlyUserFields(auth.caller, fields);
      checkCreatePassword(fields);
      // "POST /api/user/?customerId=<id>&teamIds=<id1>,<id2>"
      const userTeams = teams ? await teams.parseCreateTeams(ctx, customerId, req.teamIds) : [];
      if (!teams && req.teamIds?.trim()) {
        throw unknownTeams(parseTeamIdsParam(req.teamIds).map((a) => a.teamId));
      }
      const id = newId();
      // Hashed before the transaction: no pooled connection waits idle in it for a hash slot.
      const passwordHash = fields.password === undefined ? null : await deps.passwords.account.hash(fields.password, ctx.signal);
      try {
        await knex.transaction(async (trx) => {
          await trx("app_user").insert({
            ...userColumns(fields),
            id,
            email,
            customer_id: customerId,
            auth_provider: authProviderName(fields.authProvider),
            password_hash: passwordHash,
          });
          await teams?.assignCreatedUser(trx, id, customerId, userTeams);
        });
      } catch (e) {
        if (isUniqueViolation(e)) throw serviceError(Code.AlreadyExists, "user.error.emailTaken", `A user with email '${email}' already exists`, { email });
        throw e;
      }
      // The password setup message goes out through the notification channel once it exists.
      deps.logger.info({ userId: id, customerId }, "user created");
      return { user: userToMessage((await findUserById(knex, id))!) };
    },

    async updateUser(req, ctx) {
      const auth = requireAuth(ctx);
      const fields = req.user ?? ({} as UserFields);
      // "Users: create, update another user, delete another user | OWNER": anyone signed in updates itself.
      const email = requireParameter(req.email, "email");
      const managesUsers = roleAtLeast(auth.caller.role, Role.OWNER);
      if (!managesUsers && auth.caller.kind !== "user") throw ownerRequired(auth);
      const me = managesUsers ? undefined : await self(auth);
      if (me && me.email.toLowerCase() !== email.toLowerCase()) throw ownerRequired(auth);
      const target = me ?? (await inScope(ctx, email, true));
      if (me) checkOwnProfileFields(fields, me);
      checkManageable(auth, target);
      checkAssignableRole(auth.caller, fields.role, false);
      checkUserEnumValues(fields);
      checkAdminOnlyUserFields(auth.caller, fields);
      checkAuthProviderUnchanged(fields, target.auth_provider);
      if (fields.role !== undefined && target.id === auth.caller.userId && roleName(fields.role) !== target.role) {
        throw serviceError(Code.InvalidArgument, "user.error.ownRole", "A user cannot change its own role");
      }
      if (fields.email !== undefined && normalizeEmail(fields.email).toLowerCase() !== target.email.toLowerCase()) {
        throw serviceError(Code.InvalidArgument, "user.error.emailImmutable", "The email is the user's key and cannot be changed");
      }
      const columns = userColumns(fields);
      // forceToSet2FA as rendered (true for a customer with force2FA) echoed back is no change: it must not pin the user's own flag.
      if (fields.forceToSet2fa !== undefined && fields.forceToSet2fa === forceToSet2fa(target)) delete columns.force_to_set_2fa;
      if (fields.password !== undefined) {
        checkPasswordRule(fields.password);
        columns.password_hash = await deps.passwords.account.hash(fields.password, ctx.signal);
      }
      // An OWNER or ADMIN may reset another user's 2FA; its own stays on while its customer forces 2FA, as in POST /api/user/2fa.
      if (fields.use2fa === false && target.use_2fa && target.id === auth.caller.userId && target.customer_force_2fa) throw twoFactorMandatory(target);
      if (fields.use2fa === false) Object.assign(columns, TWO_FACTOR_OFF);
      // Turning 2FA on needs the user's authenticator, so only the user can (instead of a silent no-op).
      if (fields.use2fa === true && !target.use_2fa) {
        throw serviceError(Code.InvalidArgument, "user.error.use2faSelfService", "2FA is turned on by the user itself: POST /api/user/2fa?enable=true, then confirm with a totp code", { fields: "use2FA" });
      }
      await knex.transaction(async (trx) => {
        if (Object.keys(columns).length) await trx("app_user").where({ id: target.id }).update(columns);
        if (fields.password !== undefined) await revokeAllRefreshTokens(trx, target.id);
        // A reset is the way out of a lock someone keeps renewing by guessing (attempt-throttle.ts).
        if (fields.password !== undefined) await deps.attempts.password.clear(trx, target.email);
        if (fields.use2fa === false) await deps.attempts.totp.clear(trx, totpSubject(target.id));
      });
      return { user: userToMessage((await findUserById(knex, target.id))!) };
    },

    async updateUserTeamAssignments(req, ctx) {
      if (!teams) throw serviceError(Code.Unimplemented, "error.notImplemented", "User team assignments need core's teams");
      const target = await inScope(ctx, req.email);
      await teams.updateUserTeams(ctx, target.id, req.update);
      return {};
    },

    async changePassword(req, ctx) {
      const auth = requireAuth(ctx);
      // "POST `/api/user/password?oldPassword=<p>&newPassword=<p>`": both are query parameters; a
      // missing one (e.g. sent as a JSON body) is named, not reported as a wrong old password.
      for (const [value, name] of [[req.oldPassword, "oldPassword"], [req.newPassword, "newPassword"]] as const) {
        if (!value) throw missingParameter(name);
      }
      const me = await self(auth);
      // The old password is a guess like a login's (a stolen access token must not become a
      // password oracle): counted with the account's logins, refused while they are locked.
      const clientAddress = clientAddressOf(ctx);
      const { guess, matches } = await deps.passwords.account.withCheck(async (passwordMatches) => {
        const guess = await deps.attempts.password.reserve(knex, me.email, clientAddress);
        return { guess, matches: await passwordMatches(me.password_hash, req.oldPassword) };
      }, ctx.signal);
      if (!matches) {
        const { lockedNow } = await deps.attempts.password.fail(knex, guess);
        if (lockedNow) logPasswordLock(deps, lockedNow, me.id, clientAddress, "wrong old passwords (POST /api/user/password)");
        throw serviceError(Code.InvalidArgument, "user.error.wrongPassword", "The old password is not correct");
      }
      await deps.attempts.password.succeed(knex, guess);
      checkPasswordRule(req.newPassword);
      const passwordHash = await deps.passwords.account.hash(req.newPassword, ctx.signal);
      await knex.transaction(async (trx) => {
        await trx("app_user").where({ id: me.id }).update({ password_hash: passwordHash });
        await revokeAllRefreshTokens(trx, me.id);
      });
      return {};
    },

    async setTwoFactor(req, ctx) {
      const auth = requireAuth(ctx);
      // "POST `/api/user/2fa?totp=<code>&enable=<bool>`": `enable` is always named; left out it is
      // no "off" (which would turn 2FA off on a call that forgot it).
      if (req.enable === undefined) throw missingParameter("enable");
      const me = await self(auth);
      if (!req.enable) {
        // Customer "force2FA | boolean | mandatory 2FA for all users": its users cannot opt out
        // (turned off, the user would only be held back to set it up again). An OWNER or ADMIN
        // may still reset another user's 2FA (PUT /api/user/?email=, use2FA false).
        if (me.customer_force_2fa) throw twoFactorMandatory(me);
        // The interceptor already demanded a valid x-totp (sensitive method, 2FA on).
        await knex("app_user").where({ id: me.id }).update(TWO_FACTOR_OFF);
        return { use2fa: false };
      }
      if (me.use_2fa) {
        // On already: a forceToSet2FA an OWNER set since is fulfilled too (else only an OWNER could clear it).
        if (me.force_to_set_2fa) await knex("app_user").where({ id: me.id }).update({ force_to_set_2fa: false });
        return { use2fa: true };
      }
      if (!req.totp) {
        const secret = generateTotpSecret();
        await knex("app_user").where({ id: me.id }).update({ pending_totp_secret: secret });
        return { use2fa: false, secret, otpauthUrl: totpUri(secret, me.email) };
      }
      if (!me.pending_totp_secret) {
        throw serviceError(Code.FailedPrecondition, "user.error.totpNotStarted", "Call without totp first to get a secret, then confirm it with a code");
      }
      // Recording the step makes the confirming code one-time too (RFC 6238 5.2).
      if (!(await useTotpCode(knex, me.id, me.pending_totp_secret, req.totp, "pending_totp_secret"))) {
        throw serviceError(Code.InvalidArgument, "auth.error.totpInvalid", "The TOTP code does not match the new secret");
      }
      // Set up as forced to ("use2FA, forceToSet2FA"): the duty is fulfilled.
      await knex("app_user").where({ id: me.id }).update({ use_2fa: true, totp_secret: me.pending_totp_secret, pending_totp_secret: null, force_to_set_2fa: false });
      return { use2fa: true };
    },

    async setProfilePicture(req, ctx) {
      const me = await self(requireAuth(ctx));
      const contentType = checkProfilePicture(req.data);
      await knex("user_profile_picture")
        .insert({ user_id: me.id, content_type: contentType, data: Buffer.from(req.data), updated_at: new Date() })
        .onConflict("user_id")
        .merge();
      return { user: userToMessage((await findUserById(knex, me.id))!) };
    },

    async deleteProfilePicture(_req, ctx) {
      const me = await self(requireAuth(ctx));
      await knex("user_profile_picture").where({ user_id: me.id }).delete();
      return {};
    },

    async getProfilePicture(req, ctx) {
      const auth = requireAuth(ctx);
      const user = req.email ? await inScope(ctx, req.email) : await self(auth);
      const picture = await knex("user_profile_picture").where({ user_id: user.id }).first();
      if (!picture) throw serviceError(Code.NotFound, "user.error.noProfilePicture", `User '${user.email}' has no profile picture`);
      return { data: new Uint8Array(picture.data), contentType: picture.content_type };
    },

    async deleteUser(req, ctx) {
      const auth = requireAuth(ctx);
      const target = await inScope(ctx, req.email, true);
      checkManageable(auth, target);
      await deleteUserRow(target);
      return {};
    },

    async deleteMyAccount(_req, ctx) {
      const me = await self(requireAuth(ctx));
      await deleteUserRow(me);
      return {};
    },
  };
}
