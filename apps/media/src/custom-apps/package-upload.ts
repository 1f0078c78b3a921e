// "Upload package": spool, check (pass 1), unpack into the store (pass 2),
// then point the row at the new package in one transaction and remove the
// previous package's blobs. Crash-safe through blob intents
// (storage/blob-intents.ts): the new package's folder has a committed intent
// before its first byte is written, adopted by the row's transaction; the
// previous package's blobs are scheduled for removal in that same transaction
// and deleted after it. Whatever a failure or a crash leaves, the sweep removes.
import type { Knex } from "knex";
import type { Scope } from "@signage/auth";
import type { BlobStore } from "@signage/storage";
import type { IdGenerator } from "@signage/db";
import type { StreamedBodyPart } from "@signage/contracts/signage/common/v1/stream_pb";
import { adoptBlobIntents, discardBlobs, recordBlobIntents, scheduleBlobRemoval } from "../storage/blob-intents.js";
import { uploadOutlivedGrace } from "../uploads/upload-errors.js";
import { appNotFound, identityTaken, invalidPackage } from "./custom-app-errors.js";
import { findApp, identityUsedElsewhere, isUniqueViolation, lockApp, updateApp } from "./custom-app-repository.js";
import type { CustomAppRow } from "./custom-app-row.js";
import { checkEntryKeys, fileKey, packageLocation } from "./package-keys.js";
import { packageBlobKeys, storePackage } from "./package-store.js";
import { inspectPackage } from "./package/inspect-package.js";
import { packageManifest } from "./package/package-manifest.js";
import { PackageError } from "./package/package-error.js";
import type { ZipLimits } from "./package/zip-limits.js";
import { spoolPackageUpload } from "./upload-spool.js";

export interface UploadInput {
  knex: Knex;
  store: BlobStore;
  newId: IdGenerator;
  limits: ZipLimits;
  scope: Scope;
  id: number;
  parts: AsyncIterable<StreamedBodyPart | undefined>;
}

export async function uploadPackage(input: UploadInput): Promise<CustomAppRow> {
  const { knex, store, limits, scope, id } = input;
  const app = await findApp(knex, scope, id);
  if (!app) throw appNotFound(id);
  const customerId = Number(app.customer_id);

  const upload = await spoolPackageUpload(input.parts, limits.maxUploadBytes);
  try {
    const inspection = await inspectPackage(upload.path, limits);
    const location = packageLocation(customerId, id, input.newId());
    checkEntryKeys(location.rootPath, inspection.files);
    const manifest = packageManifest(app.type, inspection, { appNumericId: id, name: app.name, revision: app.revision + 1 });
    if (await identityUsedElsewhere(knex, customerId, manifest.appId, id)) throw identityTaken(manifest.appId);

    await recordBlobIntents(knex, customerId, [location.folder]);
    let disowned: string[] = [];
    let updated: CustomAppRow;
    try {
      const stored = await storePackage(store, upload.path, upload.size, location, limits);
      const columns = {
        app_id: manifest.appId,
        version: manifest.version,
        size_bytes: upload.size,
        package_key: location.packageKey,
        app_root_path: location.rootPath,
        entry_point: manifest.entryPoint === undefined ? null : fileKey(location.rootPath, manifest.entryPoint),
        icon_path: manifest.iconPath === undefined ? null : fileKey(location.rootPath, manifest.iconPath),
        config: JSON.stringify(manifest.config),
        resource_list: JSON.stringify(stored.files),
      };
      updated = await knex.transaction(async (trx) => {
        const previous = await lockApp(trx, scope, id);
        if (!previous) throw appNotFound(id);
        // A swept intent (the upload outlived the grace) may have taken bytes: no row may point at them.
        if ((await adoptBlobIntents(trx, [location.folder])).length > 0) throw uploadOutlivedGrace(1);
        const row = await updateApp(trx, id, { ...columns, revision: previous.revision + 1 });
        // "An upload replaces the previous package": its bytes are disowned by this commit.
        disowned = await scheduleBlobRemoval(trx, customerId, packageBlobKeys(previous));
        return row;
      });
    } catch (e) {
      await discardBlobs(knex, store, [location.folder]);
      throw isUniqueViolation(e) ? identityTaken(manifest.appId) : e;
    }
    await discardBlobs(knex, store, disowned);
    return updated;
  } catch (e) {
    throw e instanceof PackageError ? invalidPackage(e) : e;
  } finally {
    await upload.dispose();
  }
}
