// integration's schema so far: the tenant replica and the event inbox.
import { tenantReplicaMigration } from "@signage/runtime";

export const { up, down } = tenantReplicaMigration;
