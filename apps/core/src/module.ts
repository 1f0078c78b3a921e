// Core as a service module: customers, users, OAuth; signs the access tokens.
import type { ConnectRouter } from "@connectrpc/connect";
import { createTokenIssuer } from "@signage/auth";
import { AuthService } from "@signage/contracts/signage/core/v1/auth_pb";
import { CustomerService } from "@signage/contracts/signage/core/v1/customer_pb";
import { UserService } from "@signage/contracts/signage/core/v1/user_pb";
import { UserInterfaceProfileService } from "@signage/contracts/signage/core/v1/ui_profile_pb";
import { schedulePeriodicJob, type PeriodicJob, type ServiceModule } from "@signage/runtime";
import type { Knex } from "knex";
import type { CoreDeps } from "./deps.js";
import { customerService } from "./customers/customer-service.js";
import { userService } from "./users/user-service.js";
import { uiProfileService } from "./ui-profiles/ui-profile-service.js";
import { authService } from "./oauth/auth-service.js";
import { refreshReuseGraceSecondsFromEnv, successorKeyFrom } from "./oauth/refresh-tokens.js";
import { REFRESH_TOKEN_PRUNE_FIRST_ROUND_MS, REFRESH_TOKEN_PRUNE_INTERVAL_MS, refreshTokenPruneRound, refreshTokenRetentionDaysFromEnv } from "./oauth/refresh-token-prune.js";
import { createCustomerTenantDirectory } from "./customers/customer-directory.js";
import { bootstrapAdmin } from "./users/bootstrap-admin.js";
import { CustomerEvent, customerEventData, enqueueCustomerEvent } from "./customers/customer-events.js";
import { currentUserCheck } from "./users/current-user-check.js";
import { dbTotpChecker } from "./users/totp-use.js";
import { attemptPoliciesFromEnv, attemptSubjectKeyFrom, authAttempts, pruneAuthAttempts } from "./oauth/attempt-throttle.js";
import { pruneKnownClients } from "./oauth/password-throttle.js";
import { hashLimitsFromEnv } from "./users/hash-limiter.js";
import { limitedPasswordHasher } from "./users/passwords.js";
import { tagsArea } from "./tags/tags-area.js";
import { coreTeams } from "./teams/core-teams.js";

const ACCESS_TTL_SECONDS = 900;
const REFRESH_TTL_SECONDS = 30 * 24 * 3600;

export const coreModule: ServiceModule = {
  name: "core",
  migrationsDir: new URL("../migrations/", import.meta.url),
  create(ctx) {
    if (!ctx.signingKeys) throw new Error("core needs JWT_PRIVATE_KEY (or a DATA_DIR key pair) to sign tokens");
    const attemptPolicies = attemptPoliciesFromEnv(ctx.env);
    const deps: CoreDeps = {
      knex: ctx.knex,
      bus: ctx.bus,
      outbox: ctx.outbox,
      tenantAccess: ctx.tenantAccess,
      newId: ctx.newId,
      logger: ctx.logger,
      issuer: createTokenIssuer({ signingKeys: ctx.signingKeys, accessTtlSeconds: ACCESS_TTL_SECONDS }),
      refreshTokenTtlSeconds: REFRESH_TTL_SECONDS,
      refreshReuseGraceSeconds: refreshReuseGraceSecondsFromEnv(ctx.env),
      refreshSuccessorKey: successorKeyFrom(ctx.signingKeys.privateKeyPem),
      attempts: authAttempts(attemptPolicies, attemptSubjectKeyFrom(ctx.signingKeys.privateKeyPem)),
      passwords: limitedPasswordHasher(hashLimitsFromEnv(ctx.env)),
      peers: ctx.peers,
    };
    const adminEmail = ctx.env.ADMIN_EMAIL || "admin@example.com";
    const adminPassword = ctx.env.ADMIN_PASSWORD || "admin-change-me";
    const teams = coreTeams({ knex: ctx.knex, outbox: ctx.outbox, newId: ctx.newId, peers: ctx.peers, logger: ctx.logger });
    const tags = tagsArea(deps, teams.quickFilters, (auth) => teams.accessOfAuth(auth));
    // Refresh token housekeeping (oauth/refresh-token-prune.ts); the setting is checked at start-up.
    const refreshTokenRetentionDays = refreshTokenRetentionDaysFromEnv(ctx.env);
    let refreshTokenPrune: { job: PeriodicJob; abort: AbortController } | undefined;
    let attemptPrune: PeriodicJob | undefined;
    return {
      register(router: ConnectRouter) {
        router.service(CustomerService, customerService(deps));
        router.service(UserService, userService(deps, teams));
        router.service(UserInterfaceProfileService, uiProfileService(deps.knex));
        router.service(AuthService, authService(deps));
        tags.register(router);
        teams.register(router);
      },
      directory: createCustomerTenantDirectory(ctx.knex),
      totp: dbTotpChecker(ctx.knex, deps.attempts.totp, ctx.logger),
      currentUser: currentUserCheck(ctx.knex),
      async start() {
        const announceCreated = (trx: Knex.Transaction, row: Record<string, unknown>) =>
          enqueueCustomerEvent(ctx.outbox, ctx.tenantAccess, trx, CustomerEvent.created, customerEventData(row as Parameters<typeof customerEventData>[0]));
        const { created } = await bootstrapAdmin(ctx.knex, ctx.newId, adminEmail, adminPassword, announceCreated);
        if (created) ctx.logger.info({ email: adminEmail }, "bootstrap super admin created");
        await tags.start();
        const abort = new AbortController();
        const run = refreshTokenPruneRound(ctx.knex, { retentionDays: refreshTokenRetentionDays, signal: abort.signal }, ctx.logger);
        refreshTokenPrune = { abort, job: schedulePeriodicJob({ name: "refresh token prune", intervalMs: REFRESH_TOKEN_PRUNE_INTERVAL_MS, firstRoundAfterMs: REFRESH_TOKEN_PRUNE_FIRST_ROUND_MS, logger: ctx.logger, run }) };
        // Failed-attempt rows whose window and lock have passed (oauth/attempt-throttle.ts), and known
        // client addresses past AUTH_KNOWN_CLIENT_DAYS (password-throttle.ts), on the same schedule.
        // One AUTH_LOCKOUT_SECONDS for every policy.
        const lockoutSeconds = attemptPolicies.totp.lockoutSeconds;
        const { knownClientDays } = attemptPolicies.password;
        attemptPrune = schedulePeriodicJob({
          name: "auth attempt prune",
          intervalMs: REFRESH_TOKEN_PRUNE_INTERVAL_MS,
          firstRoundAfterMs: REFRESH_TOKEN_PRUNE_FIRST_ROUND_MS,
          logger: ctx.logger,
          run: async () => (await pruneAuthAttempts(ctx.knex, lockoutSeconds)) + (knownClientDays > 0 ? await pruneKnownClients(ctx.knex, knownClientDays) : 0),
        });
      },
      async stop() {
        // A round in flight ends after its current batch.
        refreshTokenPrune?.abort.abort();
        await refreshTokenPrune?.job.stop();
        refreshTokenPrune = undefined;
        await attemptPrune?.stop();
        attemptPrune = undefined;
        await tags.stop();
      },
    };
  },
};
