import { getOption, type DescField } from "@bufbuild/protobuf";
import { field_behavior, FieldBehavior } from "@signage/contracts/google/api/field_behavior_pb";

/**
 * AIP-203 `(google.api.field_behavior) = REQUIRED`: the inputs the documents mark "(req)" or
 * "(required)", or show in the operation's path (`?folderId=<id>`). The services refuse a call
 * without them (400); OpenAPI says so, so generated clients do not make them optional.
 */
export function isRequired(field: DescField): boolean {
  return getOption(field, field_behavior).includes(FieldBehavior.REQUIRED);
}
