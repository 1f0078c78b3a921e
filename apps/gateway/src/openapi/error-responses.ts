// The error statuses an operation can answer, derived from what the route table says about it
// (auth, role, path ids, inputs) rather than listed by hand; every one has the ErrorBody shape.
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import type { Schema } from "./schemas.js";

export const ERROR_BODY_REF = { $ref: "#/components/schemas/ErrorBody" };

export function errorResponse(description: string): Schema {
  return { description, content: { "application/json": { schema: ERROR_BODY_REF } } };
}

export interface ErrorFacts {
  minRole: Role;
  customerSelector: boolean;
  hasPathId: boolean;
  /** Query or path parameters, or a body: something the gateway or service can refuse as invalid. */
  takesInput: boolean;
  /** A request body: another Content-Type than declared answers 415 (read-body.ts, or the service for uploads). */
  hasBody: boolean;
}

/** The lowest role a token can carry: a route needing only it refuses no signed-in caller for their role. */
const LOWEST_SIGNED_IN_ROLE = Role.DEVICE_USER;

export function errorResponses(facts: ErrorFacts): Record<string, Schema> {
  const needsToken = facts.minRole !== Role.PUBLIC;
  return {
    ...(facts.takesInput ? { "400": errorResponse("Invalid request (request.error.* or the operation's own key)") } : {}),
    ...(needsToken ? { "401": errorResponse("No valid bearer token") } : {}),
    // A customerId selector naming another customer is refused even to a caller with the role.
    ...(needsToken && (facts.minRole > LOWEST_SIGNED_IN_ROLE || facts.customerSelector) ? { "403": errorResponse("The caller's role or customer does not allow it (auth.error.forbidden)") } : {}),
    ...(facts.hasPathId ? { "404": errorResponse("The resource the path names does not exist (or is not the caller's)") } : {}),
    ...(facts.hasBody ? { "415": errorResponse("The body's Content-Type is not one the operation takes") } : {}),
  };
}
