// The error statuses an operation can answer, derived from what the route table says about it
// (auth, role, path ids, inputs, how its body arrives, ranges) rather than listed by hand, plus
// the few outcomes the documents give one operation; every one has the ErrorBody shape.
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import type { Schema } from "./schemas.js";

export const ERROR_BODY_REF = { $ref: "#/components/schemas/ErrorBody" };

export function errorResponse(description: string): Schema {
  return { description, content: { "application/json": { schema: ERROR_BODY_REF } } };
}

/**
 * How the request body reaches the service: JSON read whole under the gateway's cap
 * (read-body.ts), a multipart upload read whole under its cap (HttpBody-shaped RPCs,
 * rpc-routes.ts), or streamed to the service under the streaming cap (streaming/upload-route.ts),
 * which stores it.
 */
export type BodyKind = "json" | "buffered-upload" | "streamed-upload";

export interface ErrorFacts {
  minRole: Role;
  customerSelector: boolean;
  hasPathId: boolean;
  /** Query or path parameters, or a body: something the gateway or service can refuse as invalid. */
  takesInput: boolean;
  /** A request body: another Content-Type than declared answers 415 (read-body.ts, or the service for uploads). */
  body: BodyKind | undefined;
  /** A parameter naming an existing folder or file besides the path ids (an upload's parentId, fileIdToReplace). */
  namesResource: boolean;
  /** A download that hands the Range header to its service (streaming/download-route.ts). */
  servesRanges: boolean;
  /** `<service type name>/<method>`, for the operation-specific outcomes. */
  rpc: string;
}

/** The lowest role a token can carry: a route needing only it refuses no signed-in caller for their role. */
const LOWEST_SIGNED_IN_ROLE = Role.DEVICE_USER;

/** Outcomes the documents give one operation, which no route fact tells. */
const DOCUMENTED_BY_RPC: Record<string, Record<string, string>> = {
  // Document 1, Errors: "Package identity already used in the customer's effective catalog | HTTP 409".
  "signage.media.v1.CustomAppService/UploadMyAppPackage": {
    "409": "The package identity is already used in the customer's effective catalog (customApp.error.identityTaken)",
  },
};

/** The 403 of a route: for its role, and for a customerId selector only where it can be refused. */
function forbiddenDescription(facts: ErrorFacts): string {
  const reasons = [
    facts.minRole > LOWEST_SIGNED_IN_ROLE ? "the caller's role is below the operation's minimum (auth.error.forbidden)" : "",
    // libs/auth resolve-scope.ts, document 2's "Customer scoping": only a network owner's selector is refused.
    facts.customerSelector ? "a network owner's customerId naming a customer outside its network (customer.error.notOwned)" : "",
  ].filter(Boolean);
  const refused = `Refused: ${reasons.join("; or ")}.`;
  return facts.customerSelector
    ? `${refused} No other customerId is refused: an ADMIN gets that customer's data, a caller whose customer is no network owner its own tenant's.`
    : refused;
}

export function errorResponses(facts: ErrorFacts): Record<string, Schema> {
  const needsToken = facts.minRole !== Role.PUBLIC;
  const upload = facts.body === "streamed-upload";
  const statuses: Record<string, Schema> = {
    ...(facts.takesInput ? { "400": errorResponse("Invalid request (request.error.* or the operation's own key)") } : {}),
    ...(needsToken ? { "401": errorResponse("No valid bearer token") } : {}),
    ...(needsToken && (facts.minRole > LOWEST_SIGNED_IN_ROLE || facts.customerSelector) ? { "403": errorResponse(forbiddenDescription(facts)) } : {}),
    ...(facts.hasPathId || (upload && facts.namesResource) ? { "404": errorResponse("A resource the path or a parameter names does not exist (or is not the caller's)") } : {}),
    ...(facts.body ? { "413": errorResponse(facts.body === "json" ? "The JSON body exceeds the gateway's cap (request.error.tooLarge, details.maxBytes)" : "The upload exceeds its size cap (upload.error.payloadTooLarge, details.maxBytes)") } : {}),
    ...(facts.body ? { "415": errorResponse("The body's Content-Type is not one the operation takes") } : {}),
    ...(facts.servesRanges ? { "416": errorResponse("The Range starts past the end (storage.error.rangeNotSatisfiable); Content-Range names the size") } : {}),
    ...(upload ? { "507": errorResponse("Not enough storage left for the upload (storage.error.insufficientStorage)") } : {}),
  };
  // Status keys are integer-like: an object lists them in ascending order whatever the insertion order.
  for (const [status, description] of Object.entries(DOCUMENTED_BY_RPC[facts.rpc] ?? {})) statuses[status] = errorResponse(description);
  return statuses;
}
