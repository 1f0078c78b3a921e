// What the private-app operations need, passed in by the module.
import type { Knex } from "knex";
import type { IdGenerator } from "@signage/db";
import type { BlobStore } from "@signage/storage";
import type { ZipLimits } from "./package/zip-limits.js";
import type { Logger } from "@signage/platform";
import type { Peers } from "@signage/runtime";

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
}
