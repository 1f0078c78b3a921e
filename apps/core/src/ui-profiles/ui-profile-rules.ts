// Input rules of document 3 "UI profiles": "POST (... body name, hiddenUIElementRules both
// required)"; "PUT ... omitting the rules keeps them, sending them replaces the whole document".
import { toJson, type JsonObject } from "@bufbuild/protobuf";
import { ValueSchema, type Value } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";

const invalid = (key: string, message: string, details: Record<string, string | number> = {}) =>
  serviceError(Code.InvalidArgument, key, message, details);

export function validateProfileName(name: string | undefined, required: boolean): string | undefined {
  if (name === undefined) {
    if (required) throw invalid("userInterfaceProfile.error.nameRequired", "name is required");
    return undefined;
  }
  const trimmed = name.trim();
  if (!trimmed) throw invalid("userInterfaceProfile.error.nameRequired", "name must not be empty");
  if (trimmed.length > 255) throw invalid("userInterfaceProfile.error.nameTooLong", "name must be at most 255 characters");
  return trimmed;
}

/** The rules document as stored JSON; it must be a JSON object (the frontend owns its structure). */
export function rulesDocument(value: Value | undefined, required: boolean): JsonObject | undefined {
  if (value === undefined) {
    if (required) throw invalid("userInterfaceProfile.error.rulesRequired", "hiddenUIElementRules is required");
    return undefined;
  }
  const json = toJson(ValueSchema, value);
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    throw invalid("userInterfaceProfile.error.rulesInvalid", "hiddenUIElementRules must be a JSON object (the rules document)");
  }
  return json;
}

/** Emails named in an assign body, trimmed and deduplicated case-insensitively. */
export function emailList(values: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const v of values) {
    const email = v.trim();
    if (email) seen.set(email.toLowerCase(), email);
  }
  return [...seen.values()];
}
