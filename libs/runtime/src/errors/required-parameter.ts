// A required query parameter that is absent (or empty) is the client's mistake: 400
// `request.error.missingParameter` naming it, before any lookup (never a 404 for ''), alike in every service.
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";

export function missingParameter(parameter: string, message = `Query parameter '${parameter}' is required`) {
  return serviceError(Code.InvalidArgument, "request.error.missingParameter", message, { parameter });
}

/** The parameter's value, trimmed; 400 when absent or blank. */
export function requireParameter(value: string | undefined, parameter: string): string {
  const trimmed = value?.trim();
  if (!trimmed) throw missingParameter(parameter);
  return trimmed;
}
