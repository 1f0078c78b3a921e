import type { ServiceModule } from "@signage/runtime";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { integrationModule } from "@signage/integration";
import { reportingModule } from "@signage/reporting";
import { licensingModule } from "@signage/licensing";

/** Every backing service, core first (it bootstraps the admin and publishes customer events). */
export const allModules: ServiceModule[] = [coreModule, mediaModule, integrationModule, reportingModule, licensingModule];
