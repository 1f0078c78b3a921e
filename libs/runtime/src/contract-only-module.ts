// A service whose contract is in place but whose operations are not built yet:
// it starts, migrates its schema (tenant replica + inbox), keeps the tenant
// replica current, answers health, and every RPC answers Unimplemented (HTTP 501).
import { getOption, type DescService } from "@bufbuild/protobuf";
import { not_built } from "@signage/contracts/signage/options/v1/options_pb";
import type { Subscription } from "@signage/events";
import type { ServiceModule, ServiceName } from "./service-module.js";
import { createReplicaTenantDirectory } from "./tenants/tenant-replica.js";
import { subscribeTenantReplica } from "./tenants/tenant-consumer.js";
import { unimplementedService } from "./unimplemented-service.js";

export function contractOnlyModule(name: ServiceName, services: DescService[], migrationsDir: URL): ServiceModule {
  // The contract says so too (the OpenAPI document marks these operations): keep the two in step.
  for (const service of services) {
    for (const method of service.methods) {
      if (!getOption(method, not_built)) throw new Error(`${service.typeName}/${method.name} answers 501 here: mark it (signage.options.v1.not_built) in its proto`);
    }
  }
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
