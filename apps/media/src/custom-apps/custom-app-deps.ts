// What the private-app operations need, passed in by the module.
import type { Knex } from "knex";
import type { IdGenerator } from "@signage/db";
import type { BlobStore } from "@signage/storage";
import type { ZipLimits } from "./package/zip-limits.js";
import type { Logger } from "@signage/platform";
import type { Peers } from "@signage/runtime";
import type { MediaStorage } from "../storage/media-storage.js";

export interface CustomAppDeps {
  knex: Knex;
  /** Package ZIPs and their unpacked files. */
  store: BlobStore;
  newId: IdGenerator;
  /** Defaults: DEFAULT_ZIP_LIMITS. */
  limits?: Partial<ZipLimits>;
  /** Core, to tell an ADMIN's customerId of no customer (404) from one the replica has not heard of yet. */
  peers?: Peers;
  logger: Logger;
  /** Signs and checks the URLs of package files (appRootPath, entryPoint, iconPath): PUBLIC_BASE_URL and the download URL window. */
  storage: Pick<MediaStorage, "signer" | "config">;
  /** Clock of the URLs' expiry (tests). */
  now?: () => number;
}
