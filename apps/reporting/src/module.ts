import { contractOnlyModule } from "@signage/runtime";
import { StatisticsService } from "@signage/contracts/signage/reporting/v1/statistics_pb";

/** The reporting contract is in place; its operations answer 501 until the reporting issue is built. */
export const reportingModule = contractOnlyModule("reporting", [StatisticsService], new URL("../migrations/", import.meta.url));
