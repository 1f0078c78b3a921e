// `/api/customer/select`: "only brandingGuideline is exposed (kits[]: id, companyName,
// companyUrl, description, styleDescription, colorPalettes, fonts, logos, rootFolderId deprecated)".
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";

export function brandingOf(stored: JsonValue | null): JsonObject {
  const doc = stored && typeof stored === "object" && !Array.isArray(stored) ? stored : {};
  const kits = Array.isArray(doc.kits) ? doc.kits : [];
  return { kits };
}
