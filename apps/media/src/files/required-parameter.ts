// A required query parameter that is missing or blank: 400 request.error.missingParameter,
// before any lookup (an empty id would otherwise surface as "'' not found").
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";

export function missingParameter(parameter: string) {
  return serviceError(Code.InvalidArgument, "request.error.missingParameter", `${parameter} is required`, { parameter });
}

/** The trimmed value, or missingParameter. */
export function requiredParameter(value: string | undefined, parameter: string): string {
  if (!value?.trim()) throw missingParameter(parameter);
  return value.trim();
}
