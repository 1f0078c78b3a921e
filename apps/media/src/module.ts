// Media as a service module: file folders (this slice), tenant replica.
import type { ConnectRouter } from "@connectrpc/connect";
import type { Subscription } from "@signage/events";
import { FileFolderService } from "@signage/contracts/signage/media/v1/file_folder_pb";
import { createReplicaTenantDirectory, subscribeTenantReplica, type ServiceModule } from "@signage/runtime";
import { fileFolderService } from "./folders/file-folder-service.js";
import { ensureRootFolder } from "./folders/root-folder.js";

export const mediaModule: ServiceModule = {
  name: "media",
  migrationsDir: new URL("../migrations/", import.meta.url),
  create(ctx) {
    let subscription: Subscription | undefined;
    return {
      register(router: ConnectRouter) {
        router.service(FileFolderService, fileFolderService(ctx.knex));
      },
      directory: createReplicaTenantDirectory(ctx.knex),
      async start() {
        subscription = await subscribeTenantReplica(ctx.bus, ctx.knex, "media", {
          onCreated: (trx, customer) => ensureRootFolder(trx, customer.id, ctx.newId),
          onDeleted: async (trx, customer) => {
            await trx("file_folder").where({ customer_id: customer.id }).delete();
          },
        });
      },
      async stop() {
        await subscription?.stop();
      },
    };
  },
};
