import { contractOnlyModule } from "@signage/runtime";
import { WebhookActionService } from "@signage/contracts/signage/integration/v1/webhook_action_pb";

/** The integration contract is in place; its operations answer 501 until the integration issue is built. */
export const integrationModule = contractOnlyModule("integration", [WebhookActionService], new URL("../migrations/", import.meta.url));
