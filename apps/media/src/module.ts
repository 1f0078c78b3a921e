// Media as a service module: file folders (this slice), tenant replica.
import type { ConnectRouter } from "@connectrpc/connect";
import type { Subscription } from "@signage/events";
import { FileFolderService } from "@signage/contracts/signage/media/v1/file_folder_pb";
import { createReplicaTenantDirectory, createWakeSignal, schedulePeriodicJob, subscribeTenantReplica, teamAccessCacheMs, type PeriodicJob, type ServiceModule } from "@signage/runtime";
import { fileFolderService } from "./folders/file-folder-service.js";
import { ensureRootFolder } from "./folders/root-folder.js";
import { FileService } from "@signage/contracts/signage/media/v1/file_pb";
import { fileService } from "./files/file-service.js";
import { fileDepsOf } from "./files/file-deps-of.js";
import { sweepOutdatedFiles } from "./validity/validity-sweep.js";
import { CustomAppService } from "@signage/contracts/signage/media/v1/custom_app_pb";
import { customAppService } from "./custom-apps/custom-app-service.js";
import { zipLimitsFromEnv } from "./custom-apps/package/zip-limits.js";
import { mediaTeams } from "./teams/media-teams.js";
import { BlobAccessService, FileUploadService } from "@signage/contracts/signage/media/v1/upload_pb";
import { blobAccessService, createMediaStorage, sweepBlobIntents } from "./storage/index.js";
import { fileUploadService, sweepExpiredSessions, type UploadDeps } from "./uploads/index.js";
import { purgeTenantBlobsAfterCommit, purgeTenantRows } from "./files/tenant-purge.js";
import { StorageUsageService } from "@signage/contracts/signage/media/v1/storage_usage_pb";
import { storageUsageService } from "./storage-usage/index.js";

export const mediaModule: ServiceModule = {
  name: "media",
  migrationsDir: new URL("../migrations/", import.meta.url),
  create(ctx) {
    let subscription: Subscription | undefined;
    const teams = mediaTeams({ knex: ctx.knex, bus: ctx.bus, peers: ctx.peers, outbox: ctx.outbox, teamAccessCacheMs: teamAccessCacheMs(ctx.env) });
    const storage = createMediaStorage(ctx.env);
    // Woken by deletes too big to wait for (files/file-delete.ts).
    const blobSweep = createWakeSignal();
    const files = fileDepsOf(ctx, { teams: teams.hooks, urls: storage.urls, store: storage.store, blobSweep });
    const uploads: UploadDeps = { files, store: storage.store, storage, peers: ctx.peers };
    const jobs: PeriodicJob[] = [];
    return {
      register(router: ConnectRouter) {
        router.service(FileFolderService, fileFolderService(files));
        router.service(FileService, fileService(files, ctx.peers));
        router.service(StorageUsageService, storageUsageService(ctx.knex));
        teams.register(router);
        router.service(FileUploadService, fileUploadService(uploads));
        router.service(BlobAccessService, blobAccessService(uploads));
        router.service(CustomAppService, customAppService({ knex: ctx.knex, store: storage.store, storage, newId: ctx.newId, limits: zipLimitsFromEnv(ctx.env), peers: ctx.peers, logger: ctx.logger }));
      },
      directory: createReplicaTenantDirectory(ctx.knex),
      currentUser: teams.currentUser,
      async start() {
        subscription = await subscribeTenantReplica(ctx.bus, ctx.knex, "media", ctx.tenantAccess, {
          onCreated: (trx, customer) => ensureRootFolder(trx, customer.id, ctx.newId),
          // Every tenant row now (files/tenant-purge.ts), its bytes once the rows are committed gone.
          onDeleted: async (trx, customer) => {
            const blobs = await purgeTenantRows(trx, customer.id);
            purgeTenantBlobsAfterCommit(trx, files, blobs);
          },
        });
        await teams.start();
        const logger = ctx.logger;
        const onBlobError = (err: unknown, key: string) => logger.warn({ err, key }, "orphan blob not deleted; retried next sweep");
        jobs.push(
          schedulePeriodicJob({ name: "upload session sweep", intervalMs: storage.config.sweepIntervalMs, logger, run: () => sweepExpiredSessions(ctx.knex, storage.store) }),
          schedulePeriodicJob({
            name: "blob intent sweep",
            intervalMs: storage.config.blobIntentSweepIntervalMs,
            logger,
            wakeOn: blobSweep,
            run: () => sweepBlobIntents(ctx.knex, storage.store, { graceMs: storage.config.blobIntentGraceMs, onError: onBlobError }),
          }),
          schedulePeriodicJob({ name: "validity sweep", intervalMs: Number(ctx.env.MEDIA_VALIDITY_SWEEP_MS ?? 60_000), logger, run: () => sweepOutdatedFiles(files) }),
        );
      },
      async stop() {
        for (const job of jobs.splice(0)) await job.stop();
        await subscription?.stop();
        await teams.stop();
      },
    };
  },
};
