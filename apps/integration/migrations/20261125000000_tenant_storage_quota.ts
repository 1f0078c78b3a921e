// The tenant replica tells a carried storage quota (null = unlimited) from one no event carried yet.
import { tenantStorageQuotaMigration } from "@signage/runtime";

export const { up, down } = tenantStorageQuotaMigration;
