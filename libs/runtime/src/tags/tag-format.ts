// "Format: must not start with `-` or whitespace; letters, digits and `- _ # .`
// allowed; at most 2048 characters." One rule for core's tag registry and for
// every service that accepts tags on its resources.
//
// Judgement call: a space is accepted inside a tag (otherwise "must not start
// with whitespace" would say nothing); other whitespace (tabs, line breaks) is not.
export const TAG_MAX_LENGTH = 2048;

const ALLOWED = /^[\p{L}\p{M}\p{N} _#.-]*$/u;

/** Why `tag` breaks the format rule, or undefined when it is a valid tag. */
export function tagFormatProblem(tag: unknown): string | undefined {
  if (typeof tag !== "string" || tag.length === 0) return "a tag must be a non-empty string";
  if (tag.length > TAG_MAX_LENGTH) return `a tag has at most ${TAG_MAX_LENGTH} characters (got ${tag.length})`;
  if (tag.startsWith("-") || /^\s/u.test(tag)) return "a tag must not start with '-' or whitespace";
  if (!ALLOWED.test(tag)) return "a tag may contain only letters, digits, spaces and - _ # .";
  return undefined;
}

export function isValidTag(tag: unknown): tag is string {
  return tagFormatProblem(tag) === undefined;
}
