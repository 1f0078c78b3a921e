// Tag types between the proto enum, the stored name and the GET /api/tag keys.
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";
import { TagType } from "@signage/contracts/signage/core/v1/tag_pb";
import { TAG_TYPES, type TagType as TagTypeName, missingParameter } from "@signage/runtime";

/** "Listing response keys: deviceTags, deviceContentTags, campaignTags, messageTags, fileTags" (also the response's field names). */
export const TAG_MAP_KEYS = {
  DEVICE: "deviceTags",
  CONTENT: "deviceContentTags",
  CAMPAIGN: "campaignTags",
  MESSAGE: "messageTags",
  FILE: "fileTags",
} as const satisfies Record<TagTypeName, string>;

/** The stored name of a request's tag type; 400 when absent. */
export function tagTypeName(value: TagType | undefined, parameter = "tagType"): TagTypeName {
  // An absent enum query parameter arrives as UNSPECIFIED.
  if (value === undefined || value === TagType.UNSPECIFIED) throw missingParameter(parameter, `${parameter} is required: one of ${TAG_TYPES.join(", ")}`);
  const name = value === undefined ? undefined : TagType[value];
  if (!name || !(TAG_TYPES as readonly string[]).includes(name)) {
    throw serviceError(Code.InvalidArgument, "tag.error.invalidType", `${parameter} must be one of ${TAG_TYPES.join(", ")}`, { parameter });
  }
  return name as TagTypeName;
}

export function tagTypeEnum(name: TagTypeName): TagType {
  return TagType[name];
}

/** `select=deviceTags,...` -> the tag types to list; all when empty. */
export function selectedTagTypes(select: string | undefined): TagTypeName[] {
  if (!select?.trim()) return [...TAG_TYPES];
  const byKey = new Map<string, TagTypeName>(TAG_TYPES.map((t) => [TAG_MAP_KEYS[t], t]));
  const out = new Set<TagTypeName>();
  for (const raw of select.split(",")) {
    const key = raw.trim();
    if (key === "" || key === "*") {
      if (key === "*") TAG_TYPES.forEach((t) => out.add(t));
      continue;
    }
    const type = byKey.get(key);
    if (!type) {
      throw serviceError(Code.InvalidArgument, "select.error.invalid", `Unknown tag map '${key}' in select; known: ${[...byKey.keys()].join(", ")}`, {
        parameter: "select",
        select,
      });
    }
    out.add(type);
  }
  return [...out];
}
