import { contractOnlyModule } from "@signage/runtime";
import { LimitsService } from "@signage/contracts/signage/licensing/v1/limits_pb";

/** The licensing contract is in place; its operations answer 501 until the licensing issue is built. */
export const licensingModule = contractOnlyModule("licensing", [LimitsService], new URL("../migrations/", import.meta.url));
