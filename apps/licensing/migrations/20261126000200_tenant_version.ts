// The tenant replica's `version`: core's outbox seq of the last customer event applied, so a
// redelivered older customer.updated never undoes a newer one (libs/runtime tenant-consumer.ts).
import { tenantVersionMigration } from "@signage/runtime";

export const { up, down } = tenantVersionMigration;
