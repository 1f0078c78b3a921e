// The five tag types of document 2 "Tag" ("Tags are per customer and typed").
export const TAG_TYPES = ["DEVICE", "CONTENT", "CAMPAIGN", "MESSAGE", "FILE"] as const;
export type TagType = (typeof TAG_TYPES)[number];

export function isTagType(value: unknown): value is TagType {
  return typeof value === "string" && (TAG_TYPES as readonly string[]).includes(value);
}
