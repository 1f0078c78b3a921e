// "Format: must not start with `-` or whitespace; letters, digits and `- _ # .`
// allowed; at most 2048 characters." One rule for core's tag registry and for
// every service that accepts tags on its resources.
//
// Judgement call: a space is accepted inside a tag (otherwise "must not start
// with whitespace" would say nothing); other whitespace (tabs, line breaks) is not.
export const TAG_MAX_LENGTH = 2048;
/**
 * Judgement call: tags are indexed (core's registry, media's file tags), and an index entry holds
 * at most about 2700 bytes. 2048 ASCII characters fit; 2048 letters of 2-4 bytes each would make
 * every write carrying them fail. Such tags are refused up front, with the reason.
 */
export const TAG_MAX_BYTES = 2400;

const ALLOWED = /^[\p{L}\p{M}\p{N} _#.-]*$/u;

/** Why `tag` breaks the format rule, or undefined when it is a valid tag. */
export function tagFormatProblem(tag: unknown): string | undefined {
  if (typeof tag !== "string" || tag.length === 0) return "a tag must be a non-empty string";
  if (tag.length > TAG_MAX_LENGTH) return `a tag has at most ${TAG_MAX_LENGTH} characters (got ${tag.length})`;
  const bytes = Buffer.byteLength(tag, "utf8");
  if (bytes > TAG_MAX_BYTES) return `a tag takes at most ${TAG_MAX_BYTES} bytes in UTF-8, the most its index holds (got ${bytes} bytes in ${tag.length} characters)`;
  if (tag.startsWith("-") || /^\s/u.test(tag)) return "a tag must not start with '-' or whitespace";
  if (!ALLOWED.test(tag)) return "a tag may contain only letters, digits, spaces and - _ # .";
  return undefined;
}

export function isValidTag(tag: unknown): tag is string {
  return tagFormatProblem(tag) === undefined;
}
