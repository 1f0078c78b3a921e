// What each service app exports so that the same code runs as its own
// process (cluster) or next to the others in one process (embedded).
import type { ConnectRouter } from "@connectrpc/connect";
import type { Knex } from "knex";
import type { EventBus, Outbox } from "@signage/events";
import type { IdGenerator } from "@signage/db";
import type { CaptchaChecker, CurrentUserCheck, PublicKey, SigningKeys, TenantAccessChanges, TenantDirectory, TotpChecker } from "@signage/auth";
import type { Logger } from "@signage/platform";
import type { Peers } from "./peers/peers.js";

export type ServiceName = "core" | "media" | "integration" | "reporting" | "licensing";

export interface ModuleContext {
  knex: Knex;
  bus: EventBus;
  /** Events written in the caller's transaction, published after commit (nothing lost on a crash). */
  outbox: Outbox;
  logger: Logger;
  newId: IdGenerator;
  /** Every service verifies tokens with the public key. */
  publicKey: PublicKey;
  /** Only where the private key is configured (core signs tokens). */
  signingKeys?: SigningKeys;
  env: Record<string, string | undefined>;
  /** Other services over RPC (in memory or over the network, by composition). */
  peers: Peers;
  /**
   * The per-call tenant access check is cached briefly (TENANT_ACCESS_CACHE_MS); whoever
   * commits a change to a tenant's access facts reports it here, after the commit.
   */
  tenantAccess: TenantAccessChanges;
}

export interface ModuleInstance {
  register(router: ConnectRouter): void;
  /** Network owner -> member tenants, for scope resolution. */
  directory: TenantDirectory;
  /** Checks x-totp for sensitive methods (only core holds the secrets). */
  totp?: TotpChecker;
  /** Checks each user's token against the user as they are now (only core holds the users). */
  currentUser?: CurrentUserCheck;
  /** CAPTCHA on sensitive calls; default from the environment (`RECAPTCHA_SECRET`), off without it. */
  captcha?: CaptchaChecker;
  /** After the server listens: subscriptions, bootstrap data. */
  start?(): Promise<void>;
  /** Before the database and bus close. */
  stop?(): Promise<void>;
}

export interface ServiceModule {
  name: ServiceName;
  /** `apps/<svc>/migrations`, run at start-up. */
  migrationsDir?: URL;
  create(ctx: ModuleContext): Promise<ModuleInstance> | ModuleInstance;
}
