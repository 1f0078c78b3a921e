// A service whose contract is in place but whose operations are not built yet:
// it starts, migrates its schema (tenant replica + inbox), keeps the tenant
// replica current, answers health, and every RPC answers Unimplemented (HTTP 501).
import type { DescService } from "@bufbuild/protobuf";
import type { Subscription } from "@signage/events";
import type { ServiceModule, ServiceName } from "./service-module.js";
import { createReplicaTenantDirectory } from "./tenants/tenant-replica.js";
import { subscribeTenantReplica } from "./tenants/tenant-consumer.js";
import { unimplementedService } from "./unimplemented-service.js";

export function contractOnlyModule(name: ServiceName, services: DescService[], migrationsDir: URL): ServiceModule {
  return {
    name,
    migrationsDir,
    create(ctx) {
      let subscription: Subscription | undefined;
      return {
        register(router) {
          for (const service of services) router.service(service, unimplementedService(service));
        },
        directory: createReplicaTenantDirectory(ctx.knex),
        async start() {
          subscription = await subscribeTenantReplica(ctx.bus, ctx.knex, name, ctx.tenantAccess);
        },
        async stop() {
          await subscription?.stop();
        },
      };
    },
  };
}
