// The tenant replica's access columns: expiration and deletion (tokens of such a
// customer are refused at once) and the storage quota.
import { tenantAccessMigration } from "@signage/runtime";

export const { up, down } = tenantAccessMigration;
