// Enum values as the documents show them: "ADMIN", not "ROLE_ADMIN". buf's
// ENUM_VALUE_PREFIX rule makes every value of `LicenseTier` start with
// `LICENSE_TIER_`; the REST edge drops that prefix on output and the list
// converter accepts both spellings on input. One rule for both.
import type { DescEnum } from "@bufbuild/protobuf";

const prefixes = new WeakMap<DescEnum, string>();

/** `LicenseTier` -> `LICENSE_TIER_` when every value carries it, else "". */
export function enumValuePrefix(desc: DescEnum): string {
  let prefix = prefixes.get(desc);
  if (prefix === undefined) {
    const candidate = desc.name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase() + "_";
    prefix = desc.values.every((v) => v.name.startsWith(candidate)) ? candidate : "";
    prefixes.set(desc, prefix);
  }
  return prefix;
}
