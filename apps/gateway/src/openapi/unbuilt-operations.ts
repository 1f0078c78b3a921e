// Documented operations no service serves yet, in the OpenAPI document as what they are: the
// gateway answers them 501 (routes/unbuilt-routes.ts). A generated client sees the whole API,
// each of these marked `x-not-implemented`, with no request or response schema to rely on.
import type { DocumentedOperation } from "../routes/documented-operations.js";

/** `path`: the operation's path as the document spells it (parameter names of a path it shares). */
export function unbuiltOperationEntry(op: DocumentedOperation, path: string, errorResponse: Record<string, unknown>): Record<string, unknown> {
  const params = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  return {
    operationId: `notImplemented.${op.method.toLowerCase()}${op.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? "").toUpperCase())}`,
    tags: [op.service],
    summary: op.summary,
    description: `Documented but not built yet: answers 501 (error.notImplemented). Minimum role when built: ${op.minRole === "?" ? "not stated" : op.minRole}.`,
    "x-not-implemented": true,
    ...(op.minRole !== "?" ? { "x-min-role": op.minRole } : {}),
    // The documents make it public: no bearer once built (the global security would say otherwise).
    ...(op.minRole === "PUBLIC" ? { security: [] } : {}),
    parameters: params.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
    responses: { "501": { ...errorResponse, description: "Not implemented yet" }, default: errorResponse },
  };
}
